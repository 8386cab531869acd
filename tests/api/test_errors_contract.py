"""One source of truth for errors: ``proto/annales/v1/errors.proto``.

* every reason the server's source can emit is an ``ErrorReason`` value, and every value is
  emitted somewhere (no stale entry);
* every ``ErrorReason`` value appears in at least one other test of the suite;
* every metadata key the server sends is an ``ErrorMetadataKey`` value;
* docs/api.md lists exactly the enum's reasons and keys.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from annales.v1 import errors_pb2

from service.api.reasons import METADATA_KEYS, REASONS, reason_number
from tests.api.protocheck import aip_problems, compile_proto, missing_comments
from tests.api.reasons_scan import ROOT, emitted_reasons, reasons_table

#: files that list the reasons rather than test them
_LISTS = {"reasons_scan.py", "test_errors_contract.py"}


def test_every_emitted_reason_is_in_the_enum_and_every_value_is_emitted() -> None:
    """The enum and the server's source agree exactly."""
    emitted = emitted_reasons()
    unknown = {code: sorted(where) for code, where in emitted.items() if code not in REASONS}
    assert not unknown, f"add these reasons to ErrorReason in errors.proto: {unknown}"
    assert not REASONS - set(emitted), "ErrorReason values no code emits any more"
    assert reason_number("UNSPECIFIED") == 0 and errors_pb2.ERROR_REASON_UNSPECIFIED == 0


def test_every_reason_appears_in_a_test() -> None:
    """Each value of ErrorReason is named by at least one test (outside the lists)."""
    texts = [path.read_text() for path in (ROOT / "tests").rglob("*.py") if path.name not in _LISTS]
    corpus = "\n".join(texts)
    untested = sorted(r for r in REASONS if not re.search(rf"\b{r}\b", corpus))
    assert not untested, f"reasons no test names: {untested}"


def test_every_metadata_key_sent_is_in_the_enum() -> None:
    """Metadata keys of every ApiError in service/ are ErrorMetadataKey values."""
    keys: set[str] = set()
    for path in (ROOT / "service").rglob("*.py"):
        if "gen" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "ApiError"
            ):
                for arg in node.args[3:]:
                    if isinstance(arg, ast.Dict):
                        keys |= {k.value for k in arg.keys if isinstance(k, ast.Constant)}
    assert keys, "the scan found ApiError metadata"
    assert keys <= METADATA_KEYS, keys - METADATA_KEYS
    assert {"field", "current_version", "rule", "limit"} == METADATA_KEYS


def test_the_api_guide_lists_every_reason_and_key() -> None:
    """docs/api.md names each reason and each metadata key, and no other reason."""
    text = (ROOT / "docs" / "api.md").read_text()
    table = text.split("<!-- reasons:start -->")[1].split("<!-- reasons:end -->")[0]
    listed = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", table, re.MULTILINE))
    assert listed == REASONS, (sorted(REASONS - listed), sorted(listed - REASONS))
    assert table.strip() == reasons_table(), "regenerate: python -m tests.api.reasons_scan"
    for key in METADATA_KEYS:
        assert f"`{key}`" in text, key


def test_annales_and_errors_protos_are_documented_and_aip_named(tmp_path: Path) -> None:
    """Every element of annales.proto and errors.proto has a comment; names and field
    numbers follow the project's AIP rules (tests/api/protocheck.py)."""
    for proto in ("annales/v1/annales.proto", "annales/v1/errors.proto"):
        compiled = compile_proto(tmp_path, proto)
        assert not missing_comments(compiled), (proto, missing_comments(compiled))
        assert not aip_problems(compiled, ""), (proto, aip_problems(compiled, ""))
