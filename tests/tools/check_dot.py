#!/usr/bin/env python3
"""Checks Graphviz output: check_dot.py FILE.dot NODE... renders FILE with `dot -Tsvg`, parses the
SVG as XML and checks that each NODE id is a node of the graph. check_dot.py --svg FILE.svg only
checks that FILE is well-formed SVG."""
import subprocess
import sys
import xml.etree.ElementTree as ET


def main():
    if sys.argv[1] == "--svg":
        root = ET.parse(sys.argv[2]).getroot()
        assert root.tag.endswith("svg"), root.tag
        print(f"svg ok: {sum(1 for _ in root.iter())} elements")
        return
    path, nodes = sys.argv[1], sys.argv[2:]
    svg = subprocess.run(["dot", "-Tsvg", path], check=True, capture_output=True).stdout
    root = ET.fromstring(svg)
    titles = {t.text for t in root.iter("{http://www.w3.org/2000/svg}title")}
    missing = [n for n in nodes if n not in titles]
    assert not missing, f"missing nodes {missing} among {sorted(titles)[:40]}"
    print(f"dot ok: {len(titles)} nodes and clusters, {', '.join(nodes)} present")


if __name__ == "__main__":
    main()
