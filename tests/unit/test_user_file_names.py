"""Issue 31 item 4: messages and JSON name the user's source, never the temporary assembly a front end wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.cli import main
from isalens.engine.load import load
from isalens.engine.sources import _named_after_source
from tests.conftest import ROOT, require_tool


def test_a_temporary_assembly_is_renamed_to_the_source(tmp_path: Path) -> None:
    asm = tmp_path / "k.gfx900.s"
    asm.write_text("v_frob v1, v2\ns_endpgm\n")
    module = _named_after_source(load(asm, "gfx900", ignore_unknown=True), asm, Path("src/k.cl"))
    assert module.ir.file == "src/k.cl" and {k.file for k in module.ir.kernels} <= {"src/k.cl", None}
    (warning,) = module.ir.diagnostics
    # the assembly's line is no line of k.cl: the message keeps it, the location drops it
    assert (warning.file, warning.line) == ("src/k.cl", None)
    assert warning.message.endswith("(line 1 of the compiled assembly)")
    assert str(asm) not in warning.format()


def test_compiled_sources_name_the_source(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("clang-19")
    source = ROOT / "examples" / "kernels" / "sweep" / "tile_blur.cl"
    assert main(["analyze", str(source), "--arch", "gfx902", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["files"][0]["file"] == str(source)
    assert "/tmp/isalens" not in (out + err).replace(str(ROOT), "<checkout>")  # the checkout may be /tmp/isalens


def test_shader_notes_name_the_shader(capsys: pytest.CaptureFixture[str]) -> None:
    require_tool("glslangValidator")
    from isalens.frontends import radv
    if radv.find_radv_icd() is None:
        pytest.skip("RADV is not installed")
    shader = ROOT / "examples" / "shaders" / "lighting.frag"
    assert main(["analyze", str(shader), "--arch", "navi21"]) == 0
    out, err = capsys.readouterr()
    assert f"{shader}: note: shader occupancy" in out
    assert "/tmp/isalens" not in (out + err).replace(str(ROOT), "<checkout>")
