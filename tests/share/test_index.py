"""The shared folder's package index (PEP 503): names in their normal form, every wheel's hash in its
link, nothing but the folder's wheels served, and no path leading anywhere else."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from atoll.share.index import Outcome, PackageIndex
from atoll.share.wheels import NotAWheel, normalize, project_of
from tests.share.wheelfiles import make_wheel


def links(page: bytes) -> list[str]:
    return re.findall(r'href="([^"]+)"', page.decode())


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shared = tmp_path / "wheels"
    shared.mkdir()
    make_wheel(shared, "atoll-0.1.0-py3-none-any.whl")
    make_wheel(shared, "Foo.Bar_baz-2.0-cp311-cp311-win_amd64.whl", requires_python=">=3.11,<4")
    make_wheel(shared, "foo_bar_baz-2.0-cp312-abi3-macosx_11_0_arm64.whl")
    return shared


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("Foo.Bar_baz", "foo-bar-baz"),
        ("PyNaCl", "pynacl"),
        ("a--b__c..d", "a-b-c-d"),
        ("prompt_toolkit", "prompt-toolkit"),
    ],
)
def test_project_names_are_compared_in_their_pep_503_normal_form(name: str, normal: str) -> None:
    assert normalize(name) == normal


def test_the_root_page_lists_each_project_once_under_its_normal_name(folder: Path) -> None:
    index = PackageIndex.of_folder(folder)
    response = index.respond("/simple/")
    assert response.outcome is Outcome.PAGE
    assert links(response.body) == ["/simple/atoll/", "/simple/foo-bar-baz/"]


def test_wheels_whose_names_differ_only_in_spelling_share_one_project_page(folder: Path) -> None:
    page = PackageIndex.of_folder(folder).respond("/simple/foo-bar-baz/").body
    assert [link.split("#")[0] for link in links(page)] == [
        "/files/Foo.Bar_baz-2.0-cp311-cp311-win_amd64.whl",
        "/files/foo_bar_baz-2.0-cp312-abi3-macosx_11_0_arm64.whl",
    ]


@pytest.mark.parametrize("asked", ["/simple/Foo.Bar_baz/", "/simple/FOO-BAR-BAZ/", "/simple/foo-bar-baz"])
def test_a_project_asked_for_in_another_spelling_is_redirected_to_its_normal_name(
    folder: Path, asked: str
) -> None:
    response = PackageIndex.of_folder(folder).respond(asked)
    assert (response.outcome, response.location) == (Outcome.REDIRECT, "/simple/foo-bar-baz/")


def test_every_link_carries_the_sha256_of_the_file_it_points_to(folder: Path) -> None:
    index = PackageIndex.of_folder(folder)
    for project in ("atoll", "foo-bar-baz"):
        for link in links(index.respond(f"/simple/{project}/").body):
            path, fragment = link.split("#")
            served = index.respond(path)
            assert served.outcome is Outcome.FILE and served.file is not None
            assert fragment == "sha256=" + hashlib.sha256(served.file.read_bytes()).hexdigest()


def test_a_link_says_which_pythons_its_wheel_needs_escaped_for_html(folder: Path) -> None:
    page = PackageIndex.of_folder(folder).respond("/simple/foo-bar-baz/").body.decode()
    assert 'data-requires-python="&gt;=3.11,&lt;4"' in page


def test_only_wheels_are_listed_or_served(folder: Path) -> None:
    (folder / "atoll-0.1.0.tar.gz").write_bytes(b"an sdist")
    (folder / "notes.txt").write_text("not a package")
    (folder / "broken-1.0-py3-none-any.whl").write_bytes(b"not a zip")
    index = PackageIndex.of_folder(folder)
    assert set(index.projects) == {"atoll", "foo-bar-baz"}
    for path in ("/files/atoll-0.1.0.tar.gz", "/files/notes.txt", "/files/broken-1.0-py3-none-any.whl"):
        assert index.respond(path).outcome is Outcome.NOT_FOUND
    assert any("broken-1.0-py3-none-any.whl" in problem for problem in index.skipped)


def test_a_link_named_like_a_wheel_is_not_served(folder: Path, tmp_path: Path) -> None:
    secret = make_wheel(tmp_path, "secret-1.0-py3-none-any.whl")
    (folder / "secret-1.0-py3-none-any.whl").symlink_to(secret)
    index = PackageIndex.of_folder(folder)
    assert "secret" not in index.projects
    assert index.respond("/files/secret-1.0-py3-none-any.whl").outcome is Outcome.NOT_FOUND


@pytest.mark.parametrize(
    "path",
    [
        "/files/../outside-1.0-py3-none-any.whl",
        "/files/%2e%2e/outside-1.0-py3-none-any.whl",
        "/files/..%2Foutside-1.0-py3-none-any.whl",
        "/files//etc/passwd",
        "/simple/../../etc/passwd",
        "/simple/%2e%2e%2f%2e%2e%2fetc/",
        "/../outside-1.0-py3-none-any.whl",
        "/wheels/atoll-0.1.0-py3-none-any.whl",
    ],
)
def test_a_path_that_leads_out_of_the_index_is_refused(folder: Path, path: str) -> None:
    make_wheel(folder.parent, "outside-1.0-py3-none-any.whl")
    response = PackageIndex.of_folder(folder).respond(path)
    assert response.outcome is Outcome.NOT_FOUND and response.file is None


def test_the_bare_root_leads_to_the_index(folder: Path) -> None:
    assert PackageIndex.of_folder(folder).respond("/").location == "/simple/"


@pytest.mark.parametrize(
    "filename",
    ["atoll-0.1.0.whl", "atoll-0.1.0-py3-none.whl", "a-b-c-d-e-f-g.whl", "../atoll-0.1.0-py3-none-any.whl",
     "atoll 0.1.0-py3-none-any.whl", "-0.1.0-py3-none-any.whl", "atoll--py3-none-any-x.whl"],
)  # fmt: skip
def test_a_file_name_that_is_not_a_wheels_is_not_given_a_project(filename: str) -> None:
    with pytest.raises(NotAWheel):
        project_of(filename)


def test_a_wheel_with_a_build_tag_belongs_to_its_project() -> None:
    assert project_of("Foo_Bar-1.0-1-py3-none-any.whl") == "foo-bar"
