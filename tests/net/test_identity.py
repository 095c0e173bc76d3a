"""A user's identity on the LAN: where it lives, made once and never replaced, names, keys, known hosts."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest
import zmq
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from atoll.net.durable import write_new
from atoll.net.encoding import fingerprint
from atoll.net.identity import (
    CURVE_FILE,
    IDENTITY_FILE,
    KNOWN_HOSTS_FILE,
    SETTINGS_FILE,
    BadName,
    CurveKeyPair,
    HostKeyChanged,
    Identity,
    IdentityError,
    KnownHosts,
    check_curve_key,
    check_name,
    choose_name,
    load_identity,
    load_or_create_curve_keys,
    load_or_create_identity,
    open_profile,
    remember_name,
    remembered_name,
    table_dir,
    tables_dir,
    verify,
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A data directory that does not exist yet, as on a user's first run."""
    return tmp_path / "data" / "atoll"


# --- where things live ---------------------------------------------------------------------------


def test_table_folders_live_under_tables(home: Path) -> None:
    assert tables_dir(home) == home / "tables"
    assert table_dir(home, "t-3f9a_01") == home / "tables" / "t-3f9a_01"


@pytest.mark.parametrize("table_id", ["", "..", "../x", "a/b", "a b", "tä"])
def test_a_table_id_that_could_leave_the_tables_folder_is_refused(home: Path, table_id: str) -> None:
    with pytest.raises(IdentityError, match="table id"):
        table_dir(home, table_id)


# --- the identity --------------------------------------------------------------------------------


def test_first_use_makes_a_private_identity_in_a_private_folder(home: Path) -> None:
    identity = load_or_create_identity(home)
    assert mode(home) == 0o700
    assert mode(home / IDENTITY_FILE) == 0o600
    assert len(identity.public_key) == 32


def test_the_identity_is_the_same_on_every_later_run(home: Path) -> None:
    first = load_or_create_identity(home)
    assert load_or_create_identity(home).public_key == first.public_key
    assert load_identity(home).public_key == first.public_key


def test_making_an_identity_leaves_no_temporary_file(home: Path) -> None:
    load_or_create_identity(home)
    assert sorted(p.name for p in home.iterdir()) == [IDENTITY_FILE]


def test_a_damaged_identity_is_refused_and_left_untouched(home: Path) -> None:
    home.mkdir(parents=True, mode=0o700)
    path = home / IDENTITY_FILE
    path.write_bytes(b"-----BEGIN PRIVATE KEY-----\ngarbage\n")
    path.chmod(0o600)
    with pytest.raises(IdentityError, match=r"damaged.*left untouched.*move it away"):
        load_or_create_identity(home)
    assert path.read_bytes() == b"-----BEGIN PRIVATE KEY-----\ngarbage\n"


def test_a_key_of_another_kind_is_refused_as_damaged(home: Path) -> None:
    home.mkdir(parents=True, mode=0o700)
    other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (home / IDENTITY_FILE).write_bytes(other)
    (home / IDENTITY_FILE).chmod(0o600)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        load_or_create_identity(home)


def test_an_identity_others_may_read_is_refused_with_the_fix(home: Path) -> None:
    load_or_create_identity(home)
    (home / IDENTITY_FILE).chmod(0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        load_identity(home)


def test_a_missing_identity_is_not_made_by_load_identity(home: Path) -> None:
    with pytest.raises(IdentityError, match="no identity"):
        load_identity(home)
    assert not home.exists()


def test_a_new_file_never_replaces_one_that_appeared_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / IDENTITY_FILE
    path.write_bytes(b"the first key")
    assert write_new(path, b"a second key") is False
    assert path.read_bytes() == b"the first key"
    assert [p.name for p in tmp_path.iterdir()] == [IDENTITY_FILE]


# --- fingerprints and signatures -----------------------------------------------------------------


def test_a_fingerprint_is_six_groups_of_four_base32_letters() -> None:
    assert re.fullmatch(r"[a-z2-7]{4}(-[a-z2-7]{4}){5}", Identity.generate().fingerprint)


def test_a_fingerprint_is_the_first_fifteen_bytes_of_sha256_in_base32() -> None:
    # SHA-256 of 32 zero bytes begins 66687aadf862bd776c8fc18b8e9f8e: MZUHVLPYMK6XO3EPYGFY5H4O in base32.
    assert fingerprint(bytes(32)) == "mzuh-vlpy-mk6x-o3ep-ygfy-5h4o"


def test_a_fingerprint_of_a_key_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        fingerprint(bytes(31))


def test_a_signature_verifies_with_the_signers_public_key() -> None:
    identity = Identity.generate()
    assert verify(identity.public_key, identity.sign(b"move 3"), b"move 3")


def test_a_signature_does_not_verify_other_data_or_another_key() -> None:
    identity, other = Identity.generate(), Identity.generate()
    signature = identity.sign(b"move 3")
    assert not verify(identity.public_key, signature, b"move 4")
    assert not verify(other.public_key, signature, b"move 3")


def test_the_pynacl_form_of_the_identity_is_the_same_key() -> None:
    identity = Identity.generate()
    key = identity.signing_key()
    assert bytes(key.verify_key) == identity.public_key
    assert verify(identity.public_key, key.sign(b"move 3").signature, b"move 3")


@pytest.mark.parametrize(("key", "signature"), [(bytes(31), bytes(64)), (bytes(32), bytes(63)), (b"", b"")])
def test_a_malformed_key_or_signature_just_fails_to_verify(key: bytes, signature: bytes) -> None:
    assert not verify(key, signature, b"data")


# --- names ---------------------------------------------------------------------------------------


def test_a_given_name_is_remembered_for_next_time(home: Path) -> None:
    assert choose_name(home, "Ana", "fallback") == "Ana"
    assert choose_name(home, None, "fallback") == "Ana"
    assert remembered_name(home) == "Ana"


def test_without_any_name_the_fallback_is_used_and_not_remembered(home: Path) -> None:
    assert choose_name(home, None, "root") == "root"
    assert remembered_name(home) is None


def test_the_settings_file_is_private(home: Path) -> None:
    remember_name(home, "Ana")
    assert mode(home / SETTINGS_FILE) == 0o600
    assert json.loads((home / SETTINGS_FILE).read_text()) == {"name": "Ana"}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 33, "33 characters"),
        ("a\nb", "unprintable"),
        ("a\x1bb", "unprint"),
    ],
)
def test_a_bad_name_is_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(BadName, match=reason):
        check_name(name)


def test_a_name_of_32_printable_characters_is_accepted_without_outer_spaces() -> None:
    assert check_name("  Éloïse the 🐢 " + "x" * 17) == "Éloïse the 🐢 " + "x" * 17


def test_a_bad_name_is_not_remembered(home: Path) -> None:
    remember_name(home, "Ana")
    with pytest.raises(BadName):
        remember_name(home, "x" * 40)
    assert remembered_name(home) == "Ana"


def test_damaged_settings_are_reported_not_replaced(home: Path) -> None:
    home.mkdir(parents=True)
    (home / SETTINGS_FILE).write_text("{not json")
    with pytest.raises(IdentityError, match="damaged"):
        remember_name(home, "Ana")
    assert (home / SETTINGS_FILE).read_text() == "{not json"


# --- CURVE keys ----------------------------------------------------------------------------------


def test_the_curve_key_pair_is_made_once_and_kept_private(home: Path) -> None:
    pair = load_or_create_curve_keys(home)
    assert load_or_create_curve_keys(home) == pair
    assert mode(home / CURVE_FILE) == 0o600
    assert zmq.curve_public(pair.secret) == pair.public


def test_a_curve_file_whose_halves_do_not_match_is_refused(home: Path) -> None:
    home.mkdir(parents=True, mode=0o700)
    a, b = CurveKeyPair.generate(), CurveKeyPair.generate()
    (home / CURVE_FILE).write_text(json.dumps({"public": a.public.decode(), "secret": b.secret.decode()}))
    (home / CURVE_FILE).chmod(0o600)
    with pytest.raises(IdentityError, match="does not match"):
        load_or_create_curve_keys(home)


@pytest.mark.parametrize("key", ["short", "~" * 40, "#" * 40])
def test_a_malformed_curve_key_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match="CURVE key"):
        check_curve_key(key)


# --- known hosts ---------------------------------------------------------------------------------


def test_a_host_seen_first_is_trusted_and_remembered(home: Path) -> None:
    key = CurveKeyPair.generate().public
    hosts = KnownHosts(home)
    assert hosts.lookup("10.0.0.2:7000") is None
    assert hosts.remember("10.0.0.2:7000", key) is True
    assert KnownHosts(home).lookup("10.0.0.2:7000") == key
    assert mode(home / KNOWN_HOSTS_FILE) == 0o600


def test_the_same_key_again_is_accepted_quietly(home: Path) -> None:
    key = CurveKeyPair.generate().public
    KnownHosts(home).remember("host:7000", key)
    assert KnownHosts(home).remember("host:7000", key.decode()) is False


def test_a_silently_changed_host_key_is_refused_with_how_to_pin_or_forget(home: Path) -> None:
    old, new = CurveKeyPair.generate().public, CurveKeyPair.generate().public
    hosts = KnownHosts(home)
    hosts.remember("host:7000", old)
    with pytest.raises(HostKeyChanged) as caught:
        hosts.remember("host:7000", new)
    message = str(caught.value)
    assert f"--address host:7000#{new.decode()}" in message
    assert str(home / KNOWN_HOSTS_FILE) in message and "forget" in message
    assert hosts.lookup("host:7000") == old


def test_pinning_replaces_the_remembered_key(home: Path) -> None:
    old, new = CurveKeyPair.generate().public, CurveKeyPair.generate().public
    hosts = KnownHosts(home)
    hosts.remember("host:7000", old)
    hosts.pin("host:7000", new)
    assert hosts.lookup("host:7000") == new


def test_a_forgotten_host_is_trusted_anew_on_next_contact(home: Path) -> None:
    old, new = CurveKeyPair.generate().public, CurveKeyPair.generate().public
    hosts = KnownHosts(home)
    hosts.remember("host:7000", old)
    assert hosts.forget("host:7000") is True
    assert hosts.forget("host:7000") is False
    assert hosts.remember("host:7000", new) is True


def test_each_address_has_its_own_key(home: Path) -> None:
    a, b = CurveKeyPair.generate().public, CurveKeyPair.generate().public
    hosts = KnownHosts(home)
    hosts.remember("host:7000", a)
    hosts.remember("host:7001", b)
    assert (hosts.lookup("host:7000"), hosts.lookup("host:7001")) == (a, b)


def test_a_damaged_known_hosts_line_is_reported_with_its_number(home: Path) -> None:
    home.mkdir(parents=True)
    key = CurveKeyPair.generate().public.decode()
    (home / KNOWN_HOSTS_FILE).write_text(f"# trusted hosts\nhost:7000 {key}\nhost:7001 nonsense\n")
    with pytest.raises(IdentityError, match="line 3"):
        KnownHosts(home).lookup("host:7000")


def test_a_malformed_host_key_is_never_remembered(home: Path) -> None:
    with pytest.raises(ValueError, match="CURVE key"):
        KnownHosts(home).remember("host:7000", "not a key")
    assert not (home / KNOWN_HOSTS_FILE).exists()


# --- the whole profile ---------------------------------------------------------------------------


def test_a_profile_brings_identity_name_keys_and_known_hosts(home: Path) -> None:
    first = open_profile(home, name="Ana")
    again = open_profile(home)
    assert again.identity.public_key == first.identity.public_key
    assert again.curve == first.curve
    assert again.name == "Ana"
    assert again.known_hosts.path == home / KNOWN_HOSTS_FILE
