"""The report's HTML page: one self-contained page of the charts (SVG, inline) and the tables."""
import html

from report_charts import no_speedup_chart
from report_tables import entry_table, introduction, run_title


def markdown_html(lines):
    """The few markdown forms this report writes (paragraphs, one table) as HTML."""
    parts, in_table = [], False
    for line in lines:
        if line.startswith("| ---"):
            continue
        if line.startswith("|"):
            cells = [html.escape(c.strip().replace("**", "")) for c in line.strip("|").split("|")]
            tag = "th" if cells[0] == "rung" else "td"
            if not in_table:
                parts.append("<table>")
                in_table = True
            parts.append("<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            parts.append("</table>")
            in_table = False
        if line:
            parts.append(f"<p>{html.escape(line)}</p>")
    if in_table:
        parts.append("</table>")
    return "\n".join(parts)


def inline_svg(directory, stem):
    svg = (directory / f"{stem}.svg").read_text()
    return svg[svg.index("<svg"):]  # drop the XML prolog inside HTML


def html_page(results, rows, speedup_stems, overview_stems, scaling, directory, ranks_scaling=()):
    """One page for a projector: a list of its contents, then what the run is for (a sweep's scaling charts,
    with their tables and the model's for a sweep over ranks), the overview charts, then each exercise run as its
    chart and its table, under a heading in words; the SVG charts inline, so that it opens anywhere without
    a network. An exercise run whose speed-up chart has nothing to compare (speedup_stems None) says so."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>hpc-ladder report</title>",
             "<style>body{font-family:sans-serif;max-width:1400px;margin:auto;font-size:18px}"
             "table{border-collapse:collapse;font-size:15px}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}"
             # A figure on one line ("117 ms – 151 ms", not "151" above "ms"); names and reasons wrap.
             "td{white-space:nowrap}td:first-child,td:nth-child(3){white-space:normal}"
             "svg{width:100%;height:auto}</style></head><body>",
             "<h1>hpc-ladder results</h1>", f"<p>{html.escape(introduction(results))}</p>"]
    titles = {"overview-vs-best-cpu": "Each exercise's fastest GPU rung against its best CPU entry",
              "overview": "Every exercise's ladder, against naive"}
    sections = []  # (title, what stands under it), in the page's order
    for stem, title, table in ranks_scaling:
        sections.append((title, [inline_svg(directory, stem), markdown_html(table)]))
    for stem, title in scaling:
        sections.append((title, [inline_svg(directory, stem)]))
    for stem in overview_stems:
        sections.append((titles.get(stem, stem), [inline_svg(directory, stem)]))
    for entry, stem in zip(results["results"], speedup_stems):
        chart = inline_svg(directory, stem) if stem else f"<p>{html.escape(no_speedup_chart(entry))}</p>"
        sections.append((run_title(entry), [chart, markdown_html(entry_table(entry, rows))]))
    # Numbered ids: a title holds spaces, which an id cannot.
    parts += ["<nav><p>Contents:</p><ul>"]
    parts += [f"<li><a href='#section-{i}'>{html.escape(title)}</a></li>" for i, (title, _) in enumerate(sections, 1)]
    parts += ["</ul></nav>"]
    for i, (title, body) in enumerate(sections, 1):
        parts += [f"<section id='section-{i}'>", f"<h2>{html.escape(title)}</h2>"] + body + ["</section>"]
    parts.append("</body></html>\n")
    return "\n".join(parts)
