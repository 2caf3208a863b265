#!/usr/bin/env python3
"""Checks the documentation site that tools/build-docs.sh built, in headless Chromium (served from a local HTTP
server on 127.0.0.1, as a web server would serve it).

Prints one line per check and exits 1 if any fails:
- screenshots of the home page and of the Python CoordinationForce page (build/docs/screenshot-*.png, 1280x1600);
- every public class has its page, with every public member on it: the Python package's classes
  (openmmcoordination.__all__) and the C++ headers' (the Doxygen XML's public classes);
- the site's search page, after its JavaScript ran, lists the class pages for "CoordinationForce",
  "CoordinationNumberForce" and "PlumedTranslator";
- every page, loaded with its JavaScript, shows no error: no docutils system message or unresolved reference, no
  Python traceback (a failed tutorial), no breathe "Cannot find", no error admonition, no uncaught JavaScript error;
- every internal link (href or image of a page, with its #anchor) names an existing file and id.

Usage: python tools/check-site.py [--site build/docs/html] [--xml build/docs/doxygen/xml] [--chromium chromium]
(the Python that runs it must import openmmcoordination: .venv/bin/python).
"""
import argparse
import concurrent.futures
import functools
import http.server
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
WINDOW = (1280, 1600)
SEARCHES = {"CoordinationForce": ["api/python/CoordinationForce.html", "api/cpp/CoordinationForce.html"],
            "CoordinationNumberForce": ["api/python/CoordinationNumberForce.html", "api/cpp/CoordinationNumberForce.html"],
            "SteinhardtForce": ["api/python/SteinhardtForce.html", "api/cpp/SteinhardtForce.html"],
            "ShellFunctionForce": ["api/python/ShellFunctionForce.html", "api/cpp/ShellFunctionForce.html"],
            "PerAtomForce": ["api/python/PerAtomForce.html", "api/cpp/PerAtomForce.html"],
            "ContactMapForce": ["api/python/ContactMapForce.html", "api/cpp/ContactMapForce.html"],
            "PlumedTranslator": ["api/python/PlumedTranslator.html", "api/cpp/PlumedTranslator.html"],
            "CoordinationBiasForce": ["api/python/CoordinationBiasForce.html", "api/cpp/CoordinationBiasForce.html"],
            "PairSwitchingForce": ["api/python/PairSwitchingForce.html", "api/cpp/PairSwitchingForce.html"],
            "SwitchingSettings": ["api/python/SwitchingSettings.html", "api/cpp/SwitchingSettings.html"]}
ERROR_TEXT = ["Traceback (most recent call last)", "Cannot find class", "Cannot find file", "Cannot find namespace",
              "Cannot find function", "Cannot find member"]
ERROR_CLASSES = {"system-message": "a docutils system message", "problematic": "an unresolved reference",
                 "highlight-pytb": "a Python traceback (a failed tutorial)"}


class Page(HTMLParser):
    """The ids, links, classes and text of one HTML document."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.errors, self.search_results, self.words = set(), [], [], [], []
        self._in_search = self._in_noscript = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "noscript":  # shown only without JavaScript
            self._in_noscript += 1
        if self._in_noscript:
            return
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src") if tag in ("a", "img", "link", "script") else ():
            if attrs.get(key):
                self.links.append(attrs[key])
        classes = set((attrs.get("class") or "").split())
        for name, meaning in ERROR_CLASSES.items():
            if name in classes:
                self.errors.append(meaning)
        if {"admonition", "error"} <= classes:
            self.errors.append("an error admonition")
        if tag == "ul" and "search" in classes:
            self._in_search = 1
        elif self._in_search and tag == "ul":
            self._in_search += 1
        if self._in_search and tag == "a" and attrs.get("href"):
            self.search_results.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "noscript" and self._in_noscript:
            self._in_noscript -= 1
        if self._in_search and tag == "ul":
            self._in_search -= 1

    def handle_data(self, data):
        if not self._in_noscript:
            self.words.append(data)

    @property
    def text(self):
        return "".join(self.words)


class Chromium:
    def __init__(self, command):
        self.command = command
        self.profiles = tempfile.mkdtemp(prefix="check-site-")

    def run(self, url, *options, timeout=120):
        profile = tempfile.mkdtemp(dir=self.profiles)
        arguments = [self.command, "--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                     "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}", *options, url]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        result = subprocess.run(arguments, capture_output=True, text=True, timeout=timeout)
        shutil.rmtree(profile, ignore_errors=True)
        return result

    def dom(self, url):
        """The document after its JavaScript ran, and the uncaught JavaScript errors Chromium logged."""
        result = self.run(url, "--virtual-time-budget=10000", "--dump-dom")
        errors = [line for line in result.stderr.splitlines() if "CONSOLE" in line and "Uncaught" in line]
        return result.stdout, errors

    def close(self):
        shutil.rmtree(self.profiles, ignore_errors=True)


class Checks:
    def __init__(self):
        self.failed = 0

    def report(self, name, problems):
        if problems:
            self.failed += 1
            more = f" (and {len(problems) - 8} more)" if len(problems) > 8 else ""
            print(f"FAIL {name}: " + "; ".join(problems[:8]) + more)
        else:
            print(f"ok   {name}")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    """A local HTTP server of the site (the search page fetches the pages it lists, which file:// URLs forbid)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def png_size(path):
    with open(path, "rb") as stream:
        header = stream.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", header[16:24])


def python_classes():
    """{name: its public attributes (methods, constants)} of the package's public classes."""
    import openmmcoordination

    classes = [getattr(openmmcoordination, name) for name in openmmcoordination.__all__]
    return {c.__name__: sorted(n for n in vars(c) if not n.startswith("_") and n != "thisown")
            for c in classes if isinstance(c, type)}


def cpp_classes(xml_folder):
    """{qualified name: (Doxygen refid, the refids of its public members)} of the public classes and structs of the
    Doxygen XML."""
    index = ElementTree.parse(xml_folder / "index.xml").getroot()
    compounds = {c.get("refid"): c.findtext("name") for c in index.findall("compound")
                 if c.get("kind") in ("class", "struct")}
    private = set()
    for refid in compounds:
        for inner in ElementTree.parse(xml_folder / f"{refid}.xml").getroot().iter("innerclass"):
            if inner.get("prot") != "public":
                private.add(inner.get("refid"))
    members = {refid: [m.get("id") for m in ElementTree.parse(xml_folder / f"{refid}.xml").getroot().iter("memberdef")
                       if m.get("prot") == "public"] for refid in compounds}
    return {name: (refid, members[refid]) for refid, name in compounds.items() if refid not in private}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", default=str(ROOT / "build" / "docs" / "html"), help="the built site")
    parser.add_argument("--xml", default=str(ROOT / "build" / "docs" / "doxygen" / "xml"),
                        help="the Doxygen XML of the C++ API (its public classes must have pages)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium", help="the Chromium program")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="pages loaded at a time")
    args = parser.parse_args()
    site = Path(args.site).resolve()
    if not (site / "index.html").is_file():
        print(f"FAIL the site: no {site / 'index.html'} (run bash tools/build-docs.sh)")
        return 1
    checks = Checks()
    chromium = Chromium(args.chromium)
    server, base = serve(site)
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    static = {name: Page((site / name).read_text(encoding="utf-8")) for name in pages}
    try:
        # Screenshots, looked at by people (and checked here for their size).
        for name, page in (("home", "index.html"), ("api", "api/python/CoordinationForce.html")):
            target = site.parent / f"screenshot-{name}.png"
            target.unlink(missing_ok=True)
            result = chromium.run(base + page, f"--screenshot={target}")
            size = png_size(target) if target.exists() else None
            problems = [] if size == WINDOW else [f"no {WINDOW[0]}x{WINDOW[1]} PNG ({size}): {result.stderr[-300:]}"]
            shown = target.relative_to(ROOT) if target.is_relative_to(ROOT) else target
            checks.report(f"screenshot of {page}: {shown}", problems)

        # Every public class has its page, with every public member on it.
        for name, members in python_classes().items():
            anchor = f"openmmcoordination.{name}"
            holders = [page for page, parsed in static.items() if anchor in parsed.ids]
            expected = f"api/python/{name}.html"
            ids = static[expected].ids if expected in static else set()
            missing = [member for member in members if f"{anchor}.{member}" not in ids]
            checks.report(f"Python class {anchor} has its page {expected}, with its {len(members)} public members",
                          ([] if expected in holders else [f"documented on {holders or 'no page'}"])
                          + [f"no entry for {member}" for member in missing])
        for name, (refid, members) in sorted(cpp_classes(Path(args.xml)).items()):
            holders = [page for page, parsed in static.items() if refid in parsed.ids]
            expected = f"api/cpp/{name.split('::')[-1]}.html"
            ids = static[expected].ids if expected in static else set()
            missing = [member for member in members if member not in ids]
            checks.report(f"C++ class {name} has its page {expected}, with its {len(members)} public members",
                          ([] if expected in holders else [f"documented on {holders or 'no page'}"])
                          + [f"no entry for {member}" for member in missing])

        # The search page finds the classes (its results are written by JavaScript).
        for query, expected in SEARCHES.items():
            dom, errors = chromium.dom(base + f"search.html?q={query}")
            found = {urlsplit(href).path for href in Page(dom).search_results}
            missing = [page for page in expected if page not in found]
            checks.report(f"search for {query} lists {', '.join(expected)}",
                          ([f"missing {missing}; results: {sorted(found)[:10]}"] if missing else []) + errors)

        # Every page, loaded with its JavaScript: no error shown.
        def load(page):
            dom, errors = chromium.dom(base + page)
            parsed = Page(dom)
            problems = parsed.errors + [f"the text {text!r}" for text in ERROR_TEXT if text in parsed.text] + errors
            if not dom.strip():
                problems.append("Chromium returned no document")
            return page, problems

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = sorted(pool.map(load, pages))
        shown = [f"{page}: {', '.join(sorted(set(problems)))}" for page, problems in results if problems]
        checks.report(f"{len(pages)} pages loaded in Chromium show no error", shown)

        # Every internal link resolves, with its anchor.
        broken = []
        for page, parsed in static.items():
            for link in parsed.links:
                parts = urlsplit(link)
                if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                    continue
                path = unquote(parts.path)
                target = (site / page).parent / path if path else site / page
                if target.is_dir():
                    target = target / "index.html"
                target = target.resolve()
                if not target.is_file():
                    broken.append(f"{page}: {link} (no file)")
                    continue
                if parts.fragment and target.suffix == ".html":
                    name = target.relative_to(site).as_posix() if target.is_relative_to(site) else None
                    ids = static[name].ids if name in static else Page(target.read_text(encoding="utf-8")).ids
                    if unquote(parts.fragment) not in ids:
                        broken.append(f"{page}: {link} (no id {parts.fragment!r})")
        count = sum(len(parsed.links) for parsed in static.values())
        checks.report(f"{count} links and images of {len(pages)} pages resolve (files and anchors)", broken)
    finally:
        server.shutdown()
        chromium.close()
    print(f"check-site: {checks.failed} failed" if checks.failed else "check-site: every check passed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
