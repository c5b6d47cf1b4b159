#!/usr/bin/env python3
"""Writes the project's README as one page of the site, so that the index can link to its
sections when the site is served on its own (build-web/www/ holds no README.md):

  readme_page.py README.md build-web/www/readme.html

Each heading becomes an anchor named as GitHub names it ("## In the browser" ->
#in-the-browser), listed in a table of contents; the text under it is shown as written
(Markdown source, preformatted). Standard library only.
"""

import html
import re
import sys


def slug(title):
    """GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def main():
    if len(sys.argv) != 3:
        print("usage: readme_page.py README.md OUT.html", file=sys.stderr)
        return 2
    source, target = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as f:
        lines = f.read().splitlines()
    title, sections, current, in_code = "README", [], None, False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        heading = None if in_code else re.match(r"^(#{1,3}) (.*)$", line)
        if heading and len(heading.group(1)) == 1 and not sections and current is None:
            title = heading.group(2)
            continue
        if heading:
            current = {"level": len(heading.group(1)), "title": heading.group(2), "lines": []}
            sections.append(current)
        elif current is not None:
            current["lines"].append(line)
        else:
            sections.append({"level": 2, "title": "", "lines": [line]})
            current = sections[-1]
    out = ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>%s: README</title>" % html.escape(title), '<link rel="icon" href="data:,">',
           '<link rel="stylesheet" href="style.css">', "</head>", '<body class="readme">', "<main>",
           '<p><a href="index.html">&larr; the demos</a></p>', "<h1>%s</h1>" % html.escape(title),
           "<p>The project's README.md, section by section (the Markdown as written).</p>", "<ul>"]
    for s in sections:
        if s["title"] and s["level"] == 2:
            out.append('<li><a href="#%s">%s</a></li>' % (slug(s["title"]), html.escape(s["title"])))
    out.append("</ul>")
    for s in sections:
        if s["title"]:
            out.append('<h%d id="%s">%s</h%d>' % (s["level"], slug(s["title"]), html.escape(s["title"]), s["level"]))
        body = "\n".join(s["lines"]).strip("\n")
        if body:
            out.append("<pre>%s</pre>" % html.escape(body))
    out += ["</main>", "</body>", "</html>", ""]
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
