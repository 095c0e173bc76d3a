"""What the shared index's DNS-SD announcement says (no multicast here: the simulated LAN test
announces and browses it for real)."""

from __future__ import annotations

import pytest

from atoll.share.announce import ShareAnnouncer, index_url, instance_name


def test_the_instance_names_the_machine_without_its_domain() -> None:
    assert instance_name("bea-laptop.home.arpa") == "atoll packages on bea-laptop"


def test_the_instance_name_fits_one_dns_label() -> None:
    assert len(instance_name("ä" * 80).encode()) <= 63


def test_an_ipv6_index_url_puts_the_address_in_brackets() -> None:
    assert index_url("fe80::1", 8473, "/simple/") == "http://[fe80::1]:8473/simple/"
    assert index_url("10.0.0.5", 8473, "/simple/") == "http://10.0.0.5:8473/simple/"


@pytest.mark.parametrize(("path", "version"), [("simple/", "0.1.0"), ("/simple/", "0.1 0"), ("/a b/", "1")])
def test_an_announcement_with_a_bad_path_or_version_is_refused_before_anything_is_sent(
    path: str, version: str
) -> None:
    with pytest.raises(ValueError, match="cannot announce"):
        ShareAnnouncer(port=8473, path=path, version=version, interfaces=["10.0.0.5"])
