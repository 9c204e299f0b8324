"""LaTeX from untrusted text: escaping, Unicode, refused primitives, and a confined TeX build.

The report is made of text the engine does not control: claim statements (LaTeX on purpose),
titles, sources, reasons, and whatever a stored database produced elsewhere holds.  So:

- text from code is escaped (:func:`escape_latex`), and its non-ASCII characters are written as
  LaTeX commands (pylatexenc), so an ``ℓ``, a ``≤`` or an ``α`` prints instead of stopping pdflatex;
- LaTeX written on purpose keeps its markup, but a bare ``%`` is shown rather than starting a
  comment, and text that uses a primitive able to read or write files, define macros or change
  category codes (:func:`latex_hazard`) is refused: it is shown as plain text, and the report says
  which claim it came from;
- the PDF is built (:func:`build_pdf`) by latexmk/pdflatex with shell escape off, with TeX's file
  access confined to a build folder of its own (``openin_any``/``openout_any`` paranoid: no
  absolute paths, no ``..``), under a time limit that ends the whole process group.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",
}
_SPECIAL_RE = re.compile("|".join(re.escape(k) for k in _SPECIAL))

# Primitives and commands that read or write files, run code, define or redefine macros, change
# category codes or the output routine: none belongs in a statement, and each can take over the
# build (read /etc/..., overwrite the report's outputs, loop forever).
_HAZARDS = (
    "input", "include", "includeonly", "InputIfFileExists", "IfFileExists", "openin", "openout", "read",
    "readline", "write", "immediate", "closein", "closeout", "newread", "newwrite", "def", "edef", "gdef",
    "xdef", "let", "futurelet", "global", "long", "outer", "protected", "catcode", "lccode", "uccode", "mathcode",
    "sfcode", "delcode", "csname", "endcsname", "uppercase", "lowercase", "scantokens", "newcommand",
    "renewcommand", "providecommand", "DeclareRobustCommand", "DeclareMathOperator", "DeclareTextCommand",
    "newenvironment", "renewenvironment", "loop", "repeat", "special", "directlua", "latelua", "luaexec",
    "pdfobj", "pdfliteral", "pdfximage", "usepackage", "RequirePackage", "documentclass", "makeatletter",
    "everypar", "everymath", "everydisplay", "everyhbox", "everyvbox", "everyjob", "everyeof", "everycr",
    "afterassignment", "aftergroup", "output", "shipout", "batchmode", "nonstopmode", "scrollmode",
    "errorstopmode", "errmessage", "includegraphics", "verbatiminput", "lstinputlisting", "endinput",
    "end{document}", "begin{document}",
)
_HAZARD_RE = re.compile(r"\\(" + "|".join(re.escape(h) for h in sorted(_HAZARDS, key=len, reverse=True))
                        + r")(?![A-Za-z@])|\^\^")

TEX_TIME_LIMIT = 300.0  # seconds for the whole latexmk build before its process group is ended


class Latex(str):
    """A string that is LaTeX on purpose (a claim statement); the template does not escape it."""


def latex_hazard(text: Any) -> str | None:
    """The first primitive in ``text`` that the report refuses (``"\\\\input"``, ``"^^"``...), or None.

    Refused: commands that read or write files (``\\input``, ``\\openout``...), define or redefine
    macros (``\\def``, ``\\newcommand``...), change category codes or the output routine, load
    packages, or spell a character by its code (``^^5c`` is a backslash).
    """
    m = _HAZARD_RE.search(str(text))
    if m is None:
        return None
    return "^^" if m.group(0) == "^^" else "\\" + m.group(1)


_unicode_encoder = None


def unicode_to_latex(text: str) -> str:
    """Write the non-ASCII characters of ``text`` as LaTeX (``ℓ`` -> ``\\ensuremath{\\ell}``);
    characters LaTeX has no command for become a bold question mark."""
    global _unicode_encoder
    if text.isascii():
        return text
    if _unicode_encoder is None:
        from pylatexenc.latexencode import UnicodeToLatexEncoder

        _unicode_encoder = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="braces-all",
                                                 unknown_char_policy="replace", unknown_char_warning=False)
    return _unicode_encoder.unicode_to_latex(text.replace("\u2212", "-"))


def escape_latex(value: Any) -> str:
    """Escape ``value`` (converted to str) for LaTeX text mode, non-ASCII characters included;
    :class:`Latex` passes through."""
    if isinstance(value, Latex):
        return str(value)
    return unicode_to_latex(_SPECIAL_RE.sub(lambda m: _SPECIAL[m.group()], str(value)))


def author_latex(value: Any) -> Latex:
    """LaTeX written on purpose, made safe to compile: refused (shown as plain text) when it
    uses a primitive :func:`latex_hazard` names; otherwise a bare ``%`` is shown instead of
    starting a comment and non-ASCII characters are written as LaTeX."""
    if isinstance(value, Latex):
        return value
    text = str(value)
    if latex_hazard(text):
        return Latex(escape_latex(text))
    return Latex(unicode_to_latex(re.sub(r"(?<!\\)%", r"\\%", text)))


def escape_text_with_math(value: Any) -> Latex:
    """Escape ``value`` but keep ``$...$`` math spans as written (docstrings, titles).

    When the dollar signs do not pair up, or a math span uses a refused primitive, everything
    is escaped.  A :class:`Latex` value passes through.
    """
    if isinstance(value, Latex):
        return value
    text = str(value)
    parts = text.split("$")
    if latex_hazard(text):
        return Latex(escape_latex(text))
    if len(parts) % 2 == 0:
        return Latex(escape_latex(_unescape(text)))
    return Latex("".join(escape_latex(_unescape(p)) if i % 2 == 0 else f"${author_latex(p)}$"
                         for i, p in enumerate(parts)))


_OPERATORS = ("argmin", "argmax", "min", "max", "sup", "inf", "sum", "prod", "lim", "log", "ln", "exp", "arg", "det")
_SCRIPT = r"(?:\{[^{}\s$]*\}|[A-Za-z0-9*'](?![A-Za-z])|[0-9.]+|-[0-9.]+|\*)"
_MATH_TOKEN = re.compile(r"^[A-Za-z0-9.|()\[\]*+\-/',=<>!]*?[A-Za-z0-9)|\]*'](?:[_^]" + _SCRIPT
                         + r"[A-Za-z0-9.|()\[\]*+\-/',=<>!]*?)+$")
_DOUBLE_SCRIPT = re.compile(r"([_^])" + _SCRIPT + r"\1")


def _math_token(token: str) -> str | None:
    """``token`` as inline math when it reads as a formula written in plain text (``x_k``,
    ``n^{-1/2}``, ``||x||^2``, ``min_k``, ``n^(q/2)``), else None (``n_workers``, a file name, a
    hyphenated word such as ``l_q-Lewis-weight``)."""
    if not ("_" in token or "^" in token):
        return None
    token = re.sub(r"\^\(([^()\s]*)\)", r"^{(\1)}", token)  # n^(q/2) means n^{(q/2)}
    if not _MATH_TOKEN.match(token) or _DOUBLE_SCRIPT.search(token) or re.search(r"[_^].*-[A-Za-z]{3,}", token):
        return None
    if token.count("{") != token.count("}") or "__" in token or "^^" in token:
        return None
    body = re.sub(r"\^(-?[0-9.]+)", r"^{\1}", token)  # x^-1 means x^{-1}
    body = re.sub(r"_([0-9]{2,})", r"_{\1}", body)
    body = re.sub(r"(?<![A-Za-z\\])(" + "|".join(_OPERATORS) + r")(?=[_^(])",
                  lambda m: rf"\operatorname{{{m.group(1)}}}" if m.group(1).startswith("arg") and len(m.group(1)) > 3
                  else "\\" + m.group(1), body)
    body = body.replace("<=", r"\le ").replace(">=", r"\ge ").replace("!=", r"\ne ")
    return body


def auto_math(text: str) -> str:
    """Plain text with the formulas it writes without ``$`` (``x_k``, ``L_0 + L_1 g``,
    ``O(n^{-1/2})``) put in ``$...$``; text that already uses ``$`` is returned as it is (its
    author chose what is math).  Used alike for the report's text and its figure labels."""
    if "$" in text or not ("_" in text or "^" in text):
        return text
    out = []
    for piece in re.split(r"(\s+)", text):
        lead = re.match(r"^[\"'`(\[]*", piece).group(0) if piece.strip() else ""
        core = piece[len(lead):]
        trail = re.search(r"[,;:.!?\"'`]*$", core).group(0) if core else ""
        if trail:
            core = core[: len(core) - len(trail)]
        # An opening parenthesis kept by the formula when it closes inside it: "(x_k)" stays whole.
        if lead.endswith("(") and core.endswith(")") and core.count("(") < core.count(")"):
            lead, core = lead[:-1], "(" + core
        math = _math_token(core) if core else None
        if math is None and core:
            # "O~(eps^-2": the formula may start after an opening bracket or a tilde.
            cut = max(core.rfind("(", 0, max(core.find("^"), core.find("_"))), core.rfind("~"))
            if 0 <= cut < len(core) - 1 and core.count("(") == 1 + core[cut + 1:].count("("):
                inner = _math_token(core[cut + 1:])
                if inner:
                    out.append(f"{lead}{core[:cut + 1]}${inner}${trail}")
                    continue
        out.append(f"{lead}${math}${trail}" if math else piece)
    return "".join(out)


_NUMBER_OR_RELATION = re.compile(
    r"(?P<sci>(?<![\w.])-?\d+(?:\.\d+)?e[-+]?\d+(?![\w.]))"
    r"|(?P<neg>(?<![\w.\-+])-\d+(?:\.\d+)?(?![\w.]))"
    r"|(?P<rel>\\textless\{\}=|\\textgreater\{\}=|\+-|!=)")
_RELATIONS = {r"\textless{}=": r"\le", r"\textgreater{}=": r"\ge", "+-": r"\pm", "!=": r"\ne"}


def _numbers(text: str) -> str:
    """Escaped plain text with numbers and relations set as math: ``1e-06`` -> 10^{-6},
    ``-0.5`` with a minus sign, ``<=`` -> a less-or-equal sign."""
    def one(m: re.Match) -> str:
        if m.group("sci"):
            mantissa, exponent = m.group("sci").split("e")
            sign = "-" if mantissa.startswith("-") else ""
            mantissa = mantissa.lstrip("-")
            factor = "" if mantissa == "1" else mantissa + r"\times "
            return f"${sign}{factor}10^{{{int(exponent)}}}$"
        if m.group("neg"):
            return f"${m.group('neg')}$"
        return f"${_RELATIONS[m.group('rel')]}$"

    return _NUMBER_OR_RELATION.sub(one, text)


_LONG_TOKEN = re.compile(r"(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)+/\S*|[^\s$]{28,}")


def _breakable_long(escaped: str) -> str:
    """Let LaTeX break a URL or another long token (a dotted module path, an identifier) after its
    slashes, dots, underscores, hyphens and '=' signs: such words overflow a line otherwise."""
    def breaks(m: re.Match) -> str:
        return re.sub(r"(/|\.(?!\d)|\\_|-|=|\?)", r"\1\\allowbreak{}", m.group(0))

    return _LONG_TOKEN.sub(breaks, escaped)


def typeset(value: Any) -> Latex:
    """Text for a table cell, a summary or a caption: ``$...$`` math kept (and formulas written
    without ``$`` found by :func:`auto_math`), numbers and relations typeset, long words (URLs)
    breakable, the rest escaped.  A :class:`Latex` value passes through; text with a refused
    primitive is all escaped."""
    if isinstance(value, Latex):
        return value
    text = str(value)
    if latex_hazard(text):
        return Latex(escape_latex(text))
    out = []
    for k, chunk in enumerate(re.split(r"((?:https?://|www\.)\S+[^\s.,;:)])", _unescape(text))):
        if k % 2:  # a URL: no math in it, breakable at its punctuation
            out.append(_breakable_long(escape_latex(chunk)))
            continue
        chunk = auto_math(chunk)
        parts = chunk.split("$")
        if len(parts) % 2 == 0:
            out.append(_breakable_long(_numbers(escape_latex(chunk))))
            continue
        out.append("".join(_breakable_long(_numbers(escape_latex(p))) if i % 2 == 0 else f"${author_latex(p)}$"
                           for i, p in enumerate(parts)))
    return Latex("".join(out))


def _unescape(text: str) -> str:
    """Prose written with LaTeX's escapes (``50\\%``, ``x\\_1``) means the characters themselves."""
    return re.sub(r"\\([%_&#])", r"\1", text)


def breakable(value: Any) -> Latex:
    """Escape an identifier and let LaTeX break the line after its underscores and dots."""
    text = escape_latex(value)
    return Latex(text.replace(r"\_", r"\_\allowbreak{}").replace(".", r".\allowbreak{}"))


_PAGE_RE = re.compile(r"\[(\d+)(?=[\s\]{<])")


def _follow_pages(stream: Any, on_page: Any) -> None:
    """Read TeX's terminal output and call ``on_page(pass, page)`` for every page shipped out
    (pdflatex prints ``[12]``); a page number that does not grow starts the next pass."""
    pass_no, last = 1, 0
    for line in stream:
        for m in _PAGE_RE.finditer(line):
            page = int(m.group(1))
            if page <= last and page == 1:
                pass_no += 1
            elif page != last + 1:
                continue  # a bracketed number that is not the next page
            last = page
            try:
                on_page(pass_no, page)
            except Exception:  # noqa: BLE001 - progress display must never stop the build
                pass


def build_pdf(tex: Path, time_limit: float = TEX_TIME_LIMIT, on_page: Any = None) -> tuple[Path | None, str]:
    """Compile ``tex`` (beside a ``figures/`` folder) with latexmk and pdflatex, confined.

    The job runs in a build folder of its own (``<out>/.tex-build``) holding a copy of the
    ``.tex`` and its figures: TeX may read and write there only (``openin_any=p``,
    ``openout_any=p``, shell escape off), so no text in the report can read a system file or
    overwrite the report's other outputs.  A build that does not finish within ``time_limit``
    seconds is ended with its whole process group.  ``on_page(pass, page)``, when given, is
    called as TeX writes each page of each pass (for a progress bar).

    Returns:
        (the PDF path beside ``tex``, or None; a message for the user when no PDF was made).
    """
    if shutil.which("latexmk") is None or shutil.which("pdflatex") is None:
        return None, (f"no TeX found: {tex} and its figures are written; install TeX "
                      "(Debian: apt-get install --no-install-recommends texlive-latex-recommended "
                      "texlive-pictures texlive-science lmodern latexmk) and run `workbench report` for the PDF")
    build = tex.parent / ".tex-build"
    try:
        if build.exists():
            shutil.rmtree(build)
        build.mkdir()
        shutil.copy(tex, build / tex.name)
        figures = tex.parent / "figures"
        if figures.is_dir():
            shutil.copytree(figures, build / "figures")
    except OSError as exc:
        return None, f"cannot prepare the TeX build folder {build}: {exc.strerror or exc}"
    # max_print_line: TeX's lines unbroken, so page marks and messages are read whole.
    env = dict(os.environ, openin_any="p", openout_any="p", shell_escape="f", max_print_line="10000")
    cmd = ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error",
           "-pdflatex=pdflatex -no-shell-escape %O %S", tex.name]
    if on_page is None:
        cmd.insert(4, "-quiet")
    proc = subprocess.Popen(cmd, cwd=build, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if on_page else subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, text=True, errors="replace")
    reader = None
    if on_page is not None:
        import threading

        reader = threading.Thread(target=_follow_pages, args=(proc.stdout, on_page), daemon=True)
        reader.start()
    try:
        code = proc.wait(timeout=time_limit)
        if reader is not None:
            reader.join(timeout=5)
    except subprocess.TimeoutExpired:
        _end_group(proc)
        _keep_log(build, tex)
        return None, (f"the TeX build did not finish within {time_limit:g} s and was stopped (a looping macro in "
                      f"some text?); see {tex.with_suffix('.log')}")
    pdf = build / tex.with_suffix(".pdf").name
    _keep_log(build, tex)
    if code != 0 or not pdf.exists():
        return None, f"latexmk failed (exit {code}); see {tex.with_suffix('.log')}"
    out = tex.with_suffix(".pdf")
    shutil.copy(pdf, out)
    shutil.rmtree(build, ignore_errors=True)
    return out, ""


def _end_group(proc: subprocess.Popen) -> None:
    """End latexmk and every pdflatex it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _keep_log(build: Path, tex: Path) -> None:
    log = build / tex.with_suffix(".log").name
    if log.exists():
        shutil.copy(log, tex.with_suffix(".log"))


def tex_error_line(log: Path) -> int | None:
    """The line of the ``.tex`` where pdflatex stopped (its ``l.NNN`` mark), or None."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return None
    marks = re.findall(r"^l\.(\d+)", text, flags=re.M)
    return int(marks[0]) if marks else None
