"""繁體中文: check or fill the zh-TW entries of every catalogue from their zh-CN texts.

    python -m bot.i18n.tw --check   # list missing, extra, changed-placeholder or simplified zh-TW
    python -m bot.i18n.tw --fill    # add the missing zh-TW entries, then check

The catalogues are the hall's JSON files (``bot/i18n/zh-TW.json``, ``commands.zh-TW.json``,
``names.zh-TW.json``: game and room names) and every ``{locale: {key: template}}`` dict in
``engines/`` whose zh-TW block is a module-level ``NAME["zh-TW"] = {...}``. ``--fill`` converts
each missing zh-CN text with OpenCC's ``s2twp`` (Taiwan phrases) and then ``GLOSSARY`` (the
hall's reviewed terms), and inserts it before the closing brace of that block (or, for JSON,
rewrites the zh-TW file in zh-CN's key order, keeping every existing zh-TW text); nothing else
in a file changes. A catalogue with no zh-TW block gets one appended at the end of its file.
Review what ``--fill`` added: ``git diff``. OpenCC (PyPI ``opencc``) is needed only here and in
the tests (the ``test`` extra); the bot reads the committed texts.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "bot" / "i18n"
ENGINES = ROOT / "engines"
TW = "zh-TW"
WIDTH = 100

GLOSSARY: tuple[tuple[str, str], ...] = (
    # Taiwan writes 帳 for accounts (帳號, 帳戶); s2twp leaves 賬
    ("賬", "帳"),
    # s2twp reads 权限 as 许可权 (a file-permission term); Discord's Taiwan UI says 權限
    ("許可權", "權限"),
    # a hand's code or a game's key is 代碼; 程式碼 is source code
    ("程式碼", "代碼"),
    ("引數", "參數"),
    # rooms are 初級 / 中級 / 高級場, as in the hall; s2twp turns only some 級 into 階
    ("高階", "高級"),
    ("低階", "低級"),
    # 跑胡子 is named for 胡 (a win), not a beard
    ("跑鬍子", "跑胡子"),
    # 呼叫轉移 is the name of a Sichuan mahjong rule (杠 money passes on), not call forwarding
    ("來電轉接", "呼叫轉移"),
    # s2twp splits 整数组成 as 整 / 数组 (array)
    ("整陣列成", "整數組成"),
    # run again on Traditional text, s2twp reads 檢視頻道 as 檢 / 視頻 (video) / 道
    ("檢影片道", "檢視頻道"),
    # 託管 throughout (s2twp keeps 托 in some phrases)
    ("托管", "託管"),
    # Discord's Taiwan interface: 指令 (commands), 私訊 (direct messages)
    ("命令", "指令"),
    ("私信", "私訊"),
    ("進位制", "進位"),
    ("通過 ", "透過 "),
    ("配置中", "設定中"),
    # 放冲 (dealing in a winning tile) is written 放銃 in Taiwan
    ("放衝", "放銃"),
    # Taiwan quotes with corner brackets
    ("“", "「"), ("”", "」"), ("‘", "『"), ("’", "』"),
    # 么 (幺, one) in 么九, 帶么, 十三么: OpenCC's s2t reads 么 as the simplified 麼 (什麼)
    ("麼九", "么九"),
    ("帶麼", "帶么"),
    ("十三麼", "十三么"),
)
"""Replacements after s2twp, reviewed against Taiwan usage in the hall's vocabulary."""


@lru_cache(maxsize=2)
def _converter(config: str = "s2twp") -> Any:
    try:
        import opencc
    except ImportError:  # pragma: no cover - the test extra installs it
        sys.exit("bot.i18n.tw needs OpenCC: pip install opencc (or the 'test' extra)")
    return opencc.OpenCC(config)


def _glossary(text: str) -> str:
    for old, new in GLOSSARY:
        text = text.replace(old, new)
    return text


def is_traditional(text: str) -> bool:
    """True if ``text`` has no simplified-only character: OpenCC's character conversion to
    Taiwan standard (s2tw, no phrase changes) and the glossary leave it unchanged.

    >>> is_traditional("輪到你出牌。"), is_traditional("轮到你出牌。")
    (True, False)
    """
    return _glossary(_converter("s2tw").convert(text)) == text


def convert(text: str) -> str:
    """繁化: a zh-CN text in zh-TW (Taiwan phrases), placeholders untouched.

    >>> convert("你的账号已被冻结，请联系服务器的管理员。")
    '你的帳號已被凍結，請聯絡伺服器的管理員。'
    """
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:  # not a format template (a command's description): no placeholders
        return _glossary(_converter().convert(text))
    parts: list[str] = []
    for literal, name, spec, conversion in fields:
        parts.append(_convert_plain(literal))
        if name is not None:
            parts.append("{" + name + ("!" + conversion if conversion else "")
                         + (":" + spec if spec else "") + "}")
    return "".join(parts)


def _convert_plain(text: str) -> str:
    # Literal braces come back from Formatter.parse single; write them doubled again
    out = _glossary(_converter().convert(text))
    return out.replace("{", "{{").replace("}", "}}")


def placeholders(template: str) -> set[str]:
    """The named fields of a format template (``{seat}`` → ``seat``); none if it is not one."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return set()


# --- the catalogues ---------------------------------------------------------------------------

@dataclass
class Catalogue:
    """One source of zh-TW texts: a JSON file or a dict in an engine module."""

    label: str
    path: Path
    zh_cn: dict[str, str]
    zh_tw: dict[str, str]
    variable: str = ""
    module: str = ""
    imports: set[str] = field(default_factory=set)

    def missing(self) -> list[str]:
        return [k for k in self.zh_cn if k not in self.zh_tw]

    def extra(self) -> list[str]:
        return [k for k in self.zh_tw if k not in self.zh_cn]


def _json(path: Path) -> dict[str, str]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def json_catalogues() -> list[Catalogue]:
    """The hall's texts, its command strings, and game and room names."""
    found = [
        Catalogue(f"bot/i18n/{TW}.json", I18N / f"{TW}.json", _json(I18N / "zh-CN.json"),
                  _json(I18N / f"{TW}.json")),
        Catalogue(f"bot/i18n/commands.{TW}.json", I18N / f"commands.{TW}.json",
                  _json(I18N / "commands.zh-CN.json"), _json(I18N / f"commands.{TW}.json")),
    ]
    names = I18N / f"names.{TW}.json"
    found.append(Catalogue(f"bot/i18n/names.{TW}.json", names,
                           {n: n for n in simplified_names()}, _json(names)))
    return found


def simplified_names() -> list[str]:
    """Every game's and every configured room's zh-CN name."""
    from bot.settings import load_settings
    from engines import registry

    names = [spec.name_zh for spec in registry.specs().values()]
    names += [room.name_zh for room in load_settings().rooms.values()]
    return list(dict.fromkeys(names))


def _catalogue_names(tree: ast.Module) -> list[str]:
    """Module-level names assigned a dict display with a "zh-CN" key."""
    names = []
    for node in tree.body:
        target, value = _assignment(node)
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "zh-CN" for k in value.keys
        ):
            names.append(target.id)
    return names


def _assignment(node: ast.stmt) -> tuple[ast.expr | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        return node.targets[0], node.value
    if isinstance(node, ast.AnnAssign):
        return node.target, node.value
    return None, None


def tw_block(tree: ast.Module, variable: str) -> ast.Dict | None:
    """The dict display of ``variable["zh-TW"] = {...}`` at module level."""
    for node in tree.body:
        target, value = _assignment(node)
        if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                and target.value.id == variable and isinstance(target.slice, ast.Constant)
                and target.slice.value == TW and isinstance(value, ast.Dict)):
            return value
    return None


def _imports(tree: ast.Module) -> set[str]:
    return {node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module}


def engine_catalogues() -> list[Catalogue]:
    """Every ``{locale: {key: template}}`` dict defined in engines/, upstream ones first."""
    found: list[Catalogue] = []
    for path in sorted(ENGINES.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if '"zh-CN"' not in source:
            continue
        tree = ast.parse(source)
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for variable in _catalogue_names(tree):
            texts = getattr(importlib.import_module(module), variable)
            found.append(Catalogue(f"{path.relative_to(ROOT)}:{variable}", path,
                                   dict(texts["zh-CN"]), dict(texts.get(TW, {})),
                                   variable, module, _imports(tree)))
    return _upstream_first(found)


def _upstream_first(found: list[Catalogue]) -> list[Catalogue]:
    """Order catalogues so that one whose module another imports comes before it."""
    done: list[Catalogue] = []
    pending = list(found)
    while pending:
        for item in pending:
            if not any(other.module in item.imports for other in pending if other is not item):
                done.append(item)
                pending.remove(item)
                break
        else:  # an import cycle: keep the rest in file order
            done += pending
            break
    return done


def spec_gaps() -> Iterator[str]:
    """Keys a registered game's merged catalogue has in zh-CN but not in zh-TW."""
    from engines import registry

    for key, spec in registry.specs().items():
        texts = spec.texts
        for text_key in texts["zh-CN"]:
            if text_key not in texts.get(TW, {}):
                yield f"{key}: {text_key}"


# --- check ------------------------------------------------------------------------------------

def problems(catalogues: list[Catalogue], *, traditional: bool = True) -> list[str]:
    """Everything wrong with the zh-TW entries, one line each (empty: all is well)."""
    found: list[str] = []
    for cat in catalogues:
        found += [f"{cat.label}: missing {k}" for k in cat.missing()]
        found += [f"{cat.label}: extra {k}" for k in cat.extra()]
        for key, text in cat.zh_tw.items():
            if key in cat.zh_cn and placeholders(text) != placeholders(cat.zh_cn[key]):
                found.append(f"{cat.label}: placeholders differ in {key}")
            if traditional and not is_traditional(text):
                found.append(f"{cat.label}: simplified characters in {key}: {text!r}")
    return found


# --- fill -------------------------------------------------------------------------------------

def literal_lines(key: str, text: str, indent: str = "    ") -> list[str]:
    """``"key": "text",`` as source lines, a long text split into adjacent literals.

    >>> literal_lines("a.b", "{seat}号")
    ['    "a.b": "{seat}號",\\n']
    """
    value = convert(text)
    head = f"{indent}{json.dumps(key, ensure_ascii=False)}: "
    pieces = _split(value, WIDTH - len(head) - 3)
    lines = [head + json.dumps(pieces[0], ensure_ascii=False)]
    lines += [indent + json.dumps(p, ensure_ascii=False) for p in pieces[1:]]
    lines[-1] += ","
    return [line + "\n" for line in lines]


def _split(text: str, width: int) -> list[str]:
    """Cut ``text`` into pieces of about ``width`` characters, never inside a ``{field}``."""
    width = max(width, 20)
    pieces: list[str] = []
    start, depth = 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if i + 1 - start >= width and depth == 0 and i + 1 < len(text):
            pieces.append(text[start:i + 1])
            start = i + 1
    pieces.append(text[start:])
    return pieces


def fill_engine(cat: Catalogue, skip: set[str]) -> list[str]:
    """Insert the missing zh-TW entries of one engine catalogue; return the keys added."""
    keys = [k for k in cat.missing() if k not in skip]
    if not keys:
        return []
    source = cat.path.read_text(encoding="utf-8")
    block = tw_block(ast.parse(source), cat.variable)
    if block is None:
        source = source.rstrip("\n") + f'\n\n{cat.variable}["{TW}"] = {{\n}}\n'
        block = tw_block(ast.parse(source), cat.variable)
        assert block is not None
    lines = source.splitlines(keepends=True)
    closing = block.end_lineno - 1  # type: ignore[operator]
    if lines[closing].strip() != "}" and lines[closing].strip() != "})":
        raise SystemExit(f"{cat.label}: put the closing brace of the zh-TW block on its own line")
    new = [line for key in keys for line in literal_lines(key, cat.zh_cn[key])]
    lines[closing:closing] = new
    cat.path.write_text("".join(lines), encoding="utf-8")
    return keys


def fill_json(cat: Catalogue) -> list[str]:
    """Rewrite one zh-TW JSON file in zh-CN's key order with the missing texts added."""
    keys = cat.missing()
    if not keys:
        return []
    merged = {k: cat.zh_tw.get(k, convert(v)) for k, v in cat.zh_cn.items()}
    merged.update({k: v for k, v in cat.zh_tw.items() if k not in merged})
    cat.path.write_text(json.dumps(merged, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return keys


def fill() -> dict[str, list[str]]:
    """Add every missing zh-TW entry; return the keys added per catalogue."""
    added: dict[str, list[str]] = {}
    for cat in json_catalogues():
        added[cat.label] = fill_json(cat)
    filled: dict[str, set[str]] = {}
    for cat in engine_catalogues():
        skip = set().union(*(keys for module, keys in filled.items()
                             if _reaches(cat.module, module)))
        keys = fill_engine(cat, skip)
        filled.setdefault(cat.module, set()).update(keys)
        added[cat.label] = keys
    return added


def _reaches(module: str, upstream: str) -> bool:
    """True if ``module`` imports ``upstream``, directly or through other engine modules."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = ROOT / Path(*name.split(".")).with_suffix(".py")
        if not path.exists():
            continue
        imported = {m for m in _imports(ast.parse(path.read_text(encoding="utf-8")))
                    if m.startswith("engines")}
        if upstream in imported:
            return True
        todo += list(imported)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.tw", description=__doc__.split(
        "\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="list what is missing or wrong")
    mode.add_argument("--fill", action="store_true", help="add missing zh-TW entries")
    args = parser.parse_args(argv)
    if args.fill:
        for label, keys in fill().items():
            if keys:
                print(f"{label}: added {len(keys)}: {', '.join(keys)}")
        # the engine modules were imported before the files changed: check in a fresh process
        import subprocess

        return subprocess.call([sys.executable, "-m", "bot.i18n.tw", "--check"], cwd=ROOT)
    found = problems(json_catalogues() + engine_catalogues())
    found += [f"game catalogue: missing {gap}" for gap in spec_gaps()]
    for line in found:
        print(line)
    counts = ", ".join(f"{c.label} {len(c.zh_tw)}" for c in json_catalogues()
                       + engine_catalogues())
    print(f"zh-TW: {len(found)} problems ({counts})")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
