"""The plugin guide and the docs site: the generated hook reference is current, every hook is
documented with an example, and ``docs/`` builds with ``mkdocs build --strict``."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cinco.core.hooks import hookspecs
from cinco.core.tools import hookdoc

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"


@pytest.mark.parametrize("name", hookdoc.DEFAULT_FILES)
def test_generated_hook_reference_is_up_to_date(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    assert hookdoc.BEGIN in text and hookdoc.END in text, f"{name} lost its reference markers"
    assert hookdoc.update(text, hookdoc.reference()) == text, (
        f"{name} is stale: run `python -m cinco.core.tools.hookdoc` at the repository root"
    )


def test_check_mode_notices_a_stale_reference(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"# Page\n{hookdoc.BEGIN}\nold\n{hookdoc.END}\nafter\n")
    assert hookdoc.main([str(page), "--check"]) == 1
    assert "old" in page.read_text()  # --check changes nothing
    assert hookdoc.main([str(page)]) == 0
    text = page.read_text()
    assert "old" not in text and text.endswith(f"{hookdoc.END}\nafter\n")
    assert hookdoc.main([str(page), "--check"]) == 0


def test_every_hook_is_documented_with_when_arguments_result_and_example() -> None:
    names = [name for name in vars(hookspecs) if name.startswith("cinco_")]
    reference = hookdoc.reference()
    sections = re.split(r"^### ", reference, flags=re.M)[1:]
    assert sorted(section.split("`")[1] for section in sections) == sorted(names)
    for section in sections:
        name = section.split("`")[1]
        assert "**Result:**" in section, name
        assert "**Arguments" in section, name
        assert "Called" in section, f"{name}: say when it is called"
        assert "Example:\n\n```python" in section, f"{name}: give an example"
        spec = getattr(hookspecs, name).cinco_spec
        assert ("first** non-`None` result wins" in section) == bool(spec["firstresult"]), name


def test_guide_points_at_real_example_distributions() -> None:
    guide = (DOCS / "plugins.md").read_text(encoding="utf-8")
    examples = sorted(p for p in (DOCS / "examples").iterdir() if p.is_dir())
    assert len(examples) >= 2
    for example in examples:
        assert f"docs/examples/{example.name}/" in guide
        project = tomllib.loads((example / "pyproject.toml").read_text(encoding="utf-8"))
        assert project["project"]["entry-points"]["cinco"], example.name
        assert list((example / "tests").glob("test_*.py")), example.name


def test_every_page_is_in_the_site_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s*- [^:]+: (\S+\.md)\s*$", config, flags=re.M))
    pages = {path.name for path in DOCS.glob("*.md")}
    assert pages <= listed, f"add to the nav of mkdocs.yml: {sorted(pages - listed)}"
    assert listed <= pages, f"missing pages named in mkdocs.yml: {sorted(listed - pages)}"


def test_docs_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs is in the test extra: pip install -e '.[test]'")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "plugins" / "index.html").exists()
    assert not (tmp_path / "examples").exists()  # the example packages are not pages


def examples() -> list[tuple[str, str]]:
    found = []
    for name, function, _spec in hookdoc.hooks():
        doc = hookdoc.to_markdown(function.__doc__ or "")
        [code] = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
        found.append((name, code))
    return found


@pytest.mark.parametrize(("hook", "code"), examples(), ids=[name for name, _ in examples()])
def test_hook_reference_examples_run(
    hook: str, code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every example in the reference is working code: registered, it plays a game."""
    import types

    from cinco import Game, Registry, Seat, Variant, hookimpl

    namespace: dict[str, object] = {"hookimpl": hookimpl}
    exec(compile(code, f"<example of {hook}>", "exec"), namespace)
    plugin = types.SimpleNamespace(**namespace)
    plugins: list[object] = [plugin]
    variants: list[str] = []
    classes = [v for v in namespace.values() if isinstance(v, type) and hasattr(v, hook)]
    rule_hooks = (
        "cinco_legal_spaces",
        "cinco_game_end",
        "cinco_game_params",
        "cinco_action_allowed",
    )
    if classes and hook in rule_hooks:
        rules = classes[0]()

        class Wrapper:
            @hookimpl
            def cinco_register_variants(self) -> list[Variant]:
                return [Variant("example", "the example", rules=rules)]

        plugins, variants = [Wrapper()], ["example"]
    registry = Registry(entry_points=False, plugins=plugins)
    assert registry.problems == []
    builtin = Registry(entry_points=False).bots()
    added = [bot for bot in registry.bots() if bot not in builtin]
    seats = [Seat("a", bot=(added or ["greedy"])[0]), Seat("b", bot="random")]
    for seed in range(3):
        config = registry.configure(2, seats=seats, variants=variants, seed=seed, turn_limit=400)
        game = Game.new(config, registry=registry)
        game.play_bots()
        assert game.is_over
        assert not [e for e in game.events if e.type == "notice"], hook
    if hook in ("cinco_game_started", "cinco_game_ended", "cinco_event"):
        assert capsys.readouterr().out  # the lifecycle examples print
