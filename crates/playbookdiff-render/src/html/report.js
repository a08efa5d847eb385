// The script of `--format html` (docs/html.md): draws the page from the
// JSON document embedded in it (#report-data: the document of
// `--format json` for the same command, gzip-compressed, in base64).
// Every text from the document goes into the page as text (textContent,
// attribute values), never as markup. No network, no storage: the page
// works from file://.
(function () {
  "use strict";

  // The embedded document, unpacked: a promise of its value.
  function unpack() {
    var packed = document.getElementById("report-data").textContent.trim();
    var binary = atob(packed);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function cannotUnpack(error) {
    var p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = "This browser cannot unpack the report (" + error + "); open it in a " +
      "current browser, or run the command with --format json or --format text.";
    document.body.appendChild(p);
  }

  if (typeof DecompressionStream === "undefined") cannotUnpack("no DecompressionStream");
  else unpack().then(draw, cannotUnpack);

  function draw(doc) {
    var kind = document.body.dataset.kind;
    var SEVERITIES = ["high", "medium", "low", "info"];
    var PAGE = 200; // rows and findings drawn at once; "Show more" adds as many

    // ---- building blocks --------------------------------------------------

    // el("p", {class: "x"}, "text", childNode, ...): an element; strings
    // become text nodes, null and false are skipped, arrays are flattened.
    function el(tag, attrs) {
      var e = document.createElement(tag);
      if (attrs) {
        Object.keys(attrs).forEach(function (k) {
          var v = attrs[k];
          if (v === null || v === undefined || v === false) return;
          if (k === "text") e.textContent = v;
          else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), v);
          else e.setAttribute(k, v === true ? "" : String(v));
        });
      }
      append(e, Array.prototype.slice.call(arguments, 2));
      return e;
    }

    function append(parent, children) {
      children.forEach(function (c) {
        if (c === null || c === undefined || c === false) return;
        if (Array.isArray(c)) append(parent, c);
        else parent.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
      });
    }

    function clear(e) {
      while (e.firstChild) e.removeChild(e.firstChild);
      return e;
    }

    function code(t) { return el("code", null, t); }

    // "path:3-5" for a source reference, with the file it resolves to.
    function where(source) {
      if (!source) return "";
      var s = source.path;
      if (source.lines) s += ":" + source.lines.start + (source.lines.end !== source.lines.start ? "-" + source.lines.end : "");
      if (source.resolvedPath) s += " (resolves to " + source.resolvedPath + ")";
      return s;
    }

    function badge(severity) {
      return el("span", { class: "badge sev-" + severity }, severity);
    }

    function kindOf(f) { return f.category + " " + f.type; }

    // ---- the findings and their filters -----------------------------------

    // Every finding with the group it is listed under (diff: introduced,
    // resolved, unchanged) and its index, the key of its element.
    var findings = [];
    function addFindings(list, group) {
      (list || []).forEach(function (f) {
        findings.push({ f: f, group: group, index: findings.length });
      });
    }
    if (kind === "diff") {
      addFindings(doc.findings.introduced, "introduced");
      addFindings(doc.findings.resolved, "resolved");
      addFindings(doc.findings.unchanged, "unchanged");
    } else {
      addFindings(doc.findings, null);
    }
    var byId = {};
    findings.forEach(function (x) { if (!byId[x.f.id]) byId[x.f.id] = x; });

    var harnesses = doc.harnesses.slice();
    var kinds = [];
    findings.forEach(function (x) { if (kinds.indexOf(kindOf(x.f)) < 0) kinds.push(kindOf(x.f)); });
    kinds.sort();

    var filter = {
      harness: new Set(harnesses),
      severity: new Set(SEVERITIES),
      kind: new Set(kinds),
      directory: "",
    };

    function involves(f, h) {
      return (f.presentIn || []).indexOf(h) >= 0 || (f.absentFrom || []).indexOf(h) >= 0;
    }

    function shown(f) {
      if (!filter.severity.has(f.severity) || !filter.kind.has(kindOf(f))) return false;
      var hs = (f.presentIn || []).concat(f.absentFrom || []);
      if (hs.length === 0) return true;
      return hs.some(function (h) { return filter.harness.has(h); });
    }

    // ---- launch directories -----------------------------------------------

    // Every launch directory with the findings (indexes) that occur there.
    var directories = [];
    var dirIndex = {};
    function dir(cwd) {
      if (!(cwd in dirIndex)) {
        dirIndex[cwd] = directories.length;
        directories.push({ cwd: cwd, findings: [], changes: {} });
      }
      return directories[dirIndex[cwd]];
    }
    if (kind === "matrix") {
      doc.directories.forEach(function (d) {
        var entry = dir(d.cwd);
        entry.receives = d.receives || {};
        d.findings.forEach(function (id) { if (byId[id]) entry.findings.push(byId[id].index); });
      });
    } else if (kind === "check") {
      var entry = dir(doc.context.cwd);
      findings.forEach(function (x) { entry.findings.push(x.index); });
    } else {
      // An upgrade lists a directory once per release that changes what
      // it receives ("apps/web from 2.1.281").
      var releasesOf = {};
      doc.directories.forEach(function (d) {
        var entry = dir(d.release ? d.cwd + " from " + d.release : d.cwd);
        (releasesOf[d.cwd] = releasesOf[d.cwd] || []).push(entry);
        d.agents.forEach(function (a) { entry.changes[a.harness] = a; });
      });
      findings.forEach(function (x) {
        (x.f.directories || []).forEach(function (cwd) {
          (releasesOf[cwd] || [dir(cwd)]).forEach(function (e) { e.findings.push(x.index); });
        });
      });
    }
    var selected = directories.length ? directories[0].cwd : null;

    // ---- page skeleton -----------------------------------------------------

    var sections = {};
    function section(id, title) {
      var s = el("section", { id: id, "aria-labelledby": id + "-h" }, el("h2", { id: id + "-h" }, title));
      sections[id] = s;
      return s;
    }

    // The steps that change what the model receives: those a bisected
    // behaviour names at that context (a step with listing metadata alone
    // is not named), and those no behaviour explains.
    function forModel(u) {
      return doc.directories.filter(function (d) {
        var at = u.changes.filter(function (c) { return c.since === d.release; });
        return !at.length || at.some(function (c) { return c.directories.indexOf(d.cwd) >= 0; });
      });
    }

    function header() {
      var ctx;
      if (doc.upgrade) {
        var u = doc.upgrade;
        ctx = el("p", { class: "context" }, "Repository ", code(doc.repository), ": what ",
          u.harness, " receives differently after an upgrade from ", code(u.from), " to ", code(u.to),
          " (" + u.changes.length + " behaviour change(s) between them; " + doc.summary.affectedContexts +
          " context(s) analysed, " + forModel(u).length + " with changes for the model)");
      } else if (kind === "diff") {
        ctx = el("p", { class: "context" }, "Repository ", code(doc.repository), ": what changes from ",
          code(doc.base.revision || doc.base.commit || "base"), " to ",
          code(doc.head.revision || doc.head.commit || "the work tree"),
          " in ", String(doc.changedPaths.length), " changed path(s)");
      } else {
        ctx = el("p", { class: "context" }, "Repository root ", code(doc.context.repositoryRoot),
          kind === "matrix" ? ", every launch directory (" + doc.directories.length + ")" : ", launch directory ",
          kind === "matrix" ? null : code(doc.context.cwd),
          doc.context.targetPath ? [", target ", code(doc.context.targetPath)] : null);
      }
      var s = doc.summary;
      var line = kind === "diff"
        ? el("p", { class: "summary-line" },
          el("span", null, s.introduced + " introduced"), el("span", null, s.resolved + " resolved"),
          el("span", null, s.unchanged + " unchanged"), el("span", null, s.failing + " failing (fail on " + doc.failOn + ")"))
        : el("p", { class: "summary-line" }, SEVERITIES.map(function (sev) {
          return el("span", null, badge(sev), String(s[sev]));
        }), el("span", null, doc.failing + " failing (fail on " + doc.failOn + ")"));
      var links = [["directories", "Launch directories"], ["pane", "What each agent receives"],
        ["findings", "Findings"], ["problems", "Problems in the repository"]];
      if (kind !== "diff") links.push(["unknowns", "What the analysis cannot know"]);
      if (doc.upgrade) links.unshift(["behaviours", "Behaviours that change"]);
      return el("header", null,
        el("a", { class: "skip", href: "#findings" }, "Skip to the findings"),
        el("h1", null, "PlaybookDiff: " + (doc.upgrade ? "what an upgrade changes" : kind === "diff" ? "what changes for each agent" : "what each agent receives")),
        ctx, line,
        el("nav", { "aria-label": "Sections" }, el("ul", null, links.map(function (l) {
          return el("li", null, el("a", { href: "#" + l[0] }, l[1]));
        }))));
    }

    // A fieldset of ticked checkboxes, one per value; a change updates
    // `set` and calls `then`.
    function checkboxes(legend, name, values, set, then) {
      return el("fieldset", null, el("legend", null, legend), values.map(function (v) {
        return el("label", null, el("input", {
          type: "checkbox", name: name, value: v, checked: true,
          onchange: function (ev) {
            if (ev.target.checked) set.add(v); else set.delete(v);
            then();
          },
        }), v);
      }));
    }

    function filters() {
      return el("form", { class: "filters", "aria-label": "Filters", onsubmit: function (e) { e.preventDefault(); } },
        checkboxes("Harness", "harness", harnesses, filter.harness, redraw),
        checkboxes("Severity", "severity", SEVERITIES, filter.severity, redrawFindings),
        checkboxes("Finding kind", "kind", kinds, filter.kind, redrawFindings),
        el("fieldset", null, el("legend", null, el("label", { for: "dir-filter" }, "Launch directory contains")),
          el("input", {
            type: "search", id: "dir-filter", placeholder: "e.g. apps/",
            oninput: function (ev) { filter.directory = ev.target.value; drawDirectories(); },
          })));
    }

    // ---- the matrix of launch directories by harness ----------------------

    var dirLimit = PAGE;
    function drawDirectories() {
      var s = clear(sections.directories);
      s.appendChild(el("h2", { id: "directories-h" }, "Launch directories"));
      var rows = directories.filter(function (d) { return d.cwd.indexOf(filter.directory) >= 0; });
      var hs = harnesses.filter(function (h) { return filter.harness.has(h); });
      var caption = kind === "diff"
        ? "Changes each agent receives in each launch directory (instructions, skills, MCP servers)"
        : "Findings shown by the filters in which each agent lacks what another receives, by launch directory";
      var body = el("tbody");
      rows.slice(0, dirLimit).forEach(function (d) {
        var shownHere = d.findings.filter(function (i) { return shown(findings[i].f); });
        var cells = hs.map(function (h) {
          var n = kind === "diff"
            ? changesOf(d.changes[h])
            : shownHere.filter(function (i) { return (findings[i].f.absentFrom || []).indexOf(h) >= 0; }).length;
          return el("td", { class: n ? null : "zero" }, String(n));
        });
        body.appendChild(el("tr", { "aria-selected": d.cwd === selected ? "true" : "false" },
          el("th", { scope: "row" }, el("button", {
            type: "button", class: "linkish", "aria-controls": "pane",
            onclick: function () { select(d.cwd); },
          }, d.cwd)),
          cells, el("td", null, String(shownHere.length))));
      });
      s.appendChild(el("p", { class: "muted", id: "matrix-caption" }, caption));
      s.appendChild(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Launch directories by harness" },
        el("table", { id: "matrix", "aria-describedby": "matrix-caption" },
          el("thead", null, el("tr", null, el("th", { scope: "col" }, "Launch directory"),
            hs.map(function (h) { return el("th", { scope: "col" }, h); }),
            el("th", { scope: "col" }, "Findings"))),
          body)));
      if (rows.length > dirLimit) {
        s.appendChild(el("button", {
          type: "button", class: "more",
          onclick: function () { dirLimit += PAGE; drawDirectories(); },
        }, "Show " + Math.min(PAGE, rows.length - dirLimit) + " more of " + (rows.length - dirLimit) + " directories"));
      }
      if (rows.length === 0) s.appendChild(el("p", { class: "muted" }, "No launch directory matches."));
    }

    function changesOf(agent) {
      if (!agent) return 0;
      return agent.instructions.length + agent.skills.length + agent.mcpServers.length;
    }

    function select(cwd) {
      selected = cwd;
      drawDirectories();
      drawPane();
      var h = document.getElementById("pane-h");
      h.setAttribute("tabindex", "-1");
      h.focus();
    }

    // ---- the side-by-side pane of one launch directory ---------------------

    function drawPane() {
      var s = clear(sections.pane);
      s.appendChild(el("h2", { id: "pane-h" }, "What each agent receives in ", code(selected === null ? "-" : selected)));
      if (selected === null) return;
      var d = directories[dirIndex[selected]];
      var hs = harnesses.filter(function (h) { return filter.harness.has(h); });
      if (kind === "diff") {
        s.appendChild(el("div", { class: "pane" }, hs.map(function (h) { return changeColumn(h, d.changes[h]); })));
      } else if (selected === doc.context.cwd) {
        s.appendChild(el("div", { class: "pane" }, hs.map(function (h) { return configColumn(h, doc.configs[h]); })));
      } else {
        s.appendChild(el("p", null, "What each agent receives when the session starts in this directory. ",
          "For why, and for what arrives on demand, run ",
          code("playbookdiff check --cwd " + selected + " --format html"), ". Its findings are below."));
        s.appendChild(el("div", { class: "pane" }, hs.map(function (h) { return receivedColumn(h, d.receives[h]); })));
      }
      s.appendChild(el("div", { id: "pane-findings" }));
      drawPaneFindings();
    }

    // The findings of the selected directory that the filters show.
    function drawPaneFindings() {
      var s = document.getElementById("pane-findings");
      if (!s) return;
      clear(s);
      var here = directories[dirIndex[selected]].findings.filter(function (i) { return shown(findings[i].f); });
      s.appendChild(el("h3", null, "Findings in this directory (" + here.length + ")"));
      s.appendChild(limited(here, function (i) {
        var f = findings[i].f;
        return el("li", null, badge(f.severity), el("a", {
          href: "#f-" + i,
          onclick: function () { reveal(i); },
        }, f.message));
      }, el("ul", { class: "plain" })));
    }

    // `list` drawn into `container` PAGE items at a time, with a "Show
    // more" button after it while some are left; returns a fragment.
    function limited(list, item, container) {
      var frag = document.createDocumentFragment();
      var drawn = 0;
      var more = el("button", { type: "button", class: "more" });
      function next() {
        list.slice(drawn, drawn + PAGE).forEach(function (x) { container.appendChild(item(x)); });
        drawn = Math.min(list.length, drawn + PAGE);
        more.textContent = "Show " + Math.min(PAGE, list.length - drawn) + " more of " + (list.length - drawn);
        more.hidden = drawn >= list.length;
      }
      more.addEventListener("click", next);
      next();
      frag.appendChild(container);
      frag.appendChild(more);
      return frag;
    }

    function provenance(item) {
      return el("div", { class: "prov" },
        el("span", { class: "mono" }, where(item.source)), " · ", item.loadPhase, " · ", item.applicability,
        item.appliesTo && item.appliesTo !== "." ? " · applies to " + item.appliesTo : null,
        item.reason ? el("div", null, item.reason) : null);
    }

    function configColumn(h, c) {
      if (!c) {
        var refused = (doc.refused || []).filter(function (r) { return r.harness === h; })[0];
        return el("div", { class: "agent" }, el("h3", null, h),
          el("p", null, refused ? refused.diagnostic.message : "Not compared."));
      }
      var instructions = c.instructions.slice().sort(function (a, b) {
        var x = a.order === null ? Infinity : a.order, y = b.order === null ? Infinity : b.order;
        return x - y;
      });
      return el("div", { class: "agent" },
        el("h3", null, h, c.agentProfile ? el("span", { class: "muted" }, " " + c.agentProfile.version) : null),
        el("h4", null, "Instructions, in the order the agent receives them (" + instructions.length + ")"),
        limited(instructions, function (i) {
          return el("li", null, el("strong", null, i.kind), " ", code(i.source.path),
            i.order === null ? el("span", { class: "muted" }, " (not in the startup order)") : null,
            provenance(i));
        }, el("ol")),
        el("h4", null, "Skills (" + c.skills.length + ")"),
        limited(c.skills, function (k) {
          return el("li", null, el("strong", null, k.name), k.description ? " " + k.description : null, provenance(k));
        }, el("ul")),
        el("h4", null, "MCP servers (" + c.mcpServers.length + ")"),
        limited(c.mcpServers, function (m) {
          return el("li", null, el("strong", null, m.name), " ", m.transport,
            m.command ? [" ", code([m.command].concat(m.args || []).join(" "))] : null,
            m.url ? [" ", code(m.url)] : null, provenance(m));
        }, el("ul")));
    }

    // One agent's column of a launch directory other than the one the
    // command ran from (`check --all-dirs`): `receives` names lists of
    // `doc.received.items`.
    function receivedColumn(h, r) {
      if (!r) {
        return el("div", { class: "agent" }, el("h3", null, h), el("p", null, "Not compared."));
      }
      function list(n) {
        return doc.received.lists[n].map(function (i) { return doc.received.items[i]; });
      }
      function item(x) {
        return el("li", null, el("strong", null, x.name || x.kind), x.name ? null : [" ", code(x.source.path)],
          el("div", { class: "prov" }, el("span", { class: "mono" }, where(x.source)), " · ",
            x.reception === "conditional" ? "at startup, if the condition holds" : "at startup"));
      }
      var instructions = list(r.instructions), skills = list(r.skills), servers = list(r.mcpServers);
      return el("div", { class: "agent" }, el("h3", null, h),
        el("h4", null, "Instructions, in the order the agent receives them (" + instructions.length + ")"),
        limited(instructions, item, el("ol")),
        el("h4", null, "Skills (" + skills.length + ")"),
        limited(skills, item, el("ul")),
        el("h4", null, "MCP servers (" + servers.length + ")"),
        limited(servers, item, el("ul")),
        el("p", { class: "muted" }, r.onDemand + " more on demand, once the agent touches a path."));
    }

    function changeColumn(h, a) {
      var col = el("div", { class: "agent" }, el("h3", null, h));
      if (!a || changesOf(a) === 0) {
        col.appendChild(el("p", { class: "muted" }, "Receives the same."));
        return col;
      }
      col.appendChild(el("ul", null,
        a.instructions.map(function (i) {
          return el("li", null, el("strong", null, i.change), " ", i.kind, " ", code(i.path),
            i.head ? el("div", { class: "prov" }, "at head: " + i.head.loadPhase + " · " + i.head.applicability) : null,
            (i.paragraphs || []).map(function (p) {
              return [p.removed ? el("pre", { class: "removed", "aria-label": "removed" }, "- " + p.removed) : null,
                p.added ? el("pre", { class: "added", "aria-label": "added" }, "+ " + p.added) : null];
            }));
        }),
        a.skills.concat(a.mcpServers).map(function (k) {
          return el("li", null, el("strong", null, k.change), " ", k.name, " ", code(k.path),
            (k.fields || []).length ? el("div", { class: "prov" }, "fields: " + k.fields.join(", ")) : null);
        })));
      return col;
    }

    // ---- the findings ------------------------------------------------------

    var findingLimit = PAGE;
    function drawFindings() {
      var s = clear(sections.findings);
      s.appendChild(el("h2", { id: "findings-h" }, "Findings"));
      var list = findings.filter(function (x) { return shown(x.f); });
      s.appendChild(el("p", { class: "shown-count", role: "status", id: "shown-count" },
        list.length + " of " + findings.length + " findings shown"));
      var groups = kind === "diff" ? ["introduced", "resolved", "unchanged"] : [null];
      var drawn = 0;
      groups.forEach(function (g) {
        var inGroup = list.filter(function (x) { return x.group === g; });
        if (g) s.appendChild(el("h3", null, g.charAt(0).toUpperCase() + g.slice(1) + " (" + inGroup.length + ")"));
        inGroup.forEach(function (x) {
          if (drawn++ < findingLimit) s.appendChild(finding(x));
        });
      });
      if (list.length > findingLimit) {
        s.appendChild(el("button", {
          type: "button", class: "more",
          onclick: function () { findingLimit += PAGE; drawFindings(); },
        }, "Show " + Math.min(PAGE, list.length - findingLimit) + " more of " + (list.length - findingLimit) + " findings"));
      }
    }

    function finding(x) {
      var f = x.f;
      var body = el("div", { class: "body" });
      // Drawn when first opened: a report of thousands stays light.
      var details = el("details", {
        class: "finding", id: "f-" + x.index, "data-id": f.id,
        ontoggle: function () { if (details.open && !body.firstChild) fillFinding(body, f); },
      }, el("summary", null, badge(f.severity), el("span", { class: "kind" }, kindOf(f)), f.message), body);
      return details;
    }

    function fillFinding(body, f) {
      append(body, [
        el("p", null, "Id ", code(f.id), f.actionable ? "" : " (low or info: not actionable)"),
        el("p", null, "Present in ", (f.presentIn || []).join(", ") || "none",
          "; absent from ", (f.absentFrom || []).join(", ") || "none", "."),
        el("h4", null, "Why"),
        el("ul", { class: "plain" },
          (f.items || []).map(function (i) {
            return el("li", null, el("strong", null, i.harness), " receives ", code(i.id), provenance(i));
          }),
          (f.absences || []).map(function (a) {
            return el("li", null, el("strong", null, a.harness), " ", a.reason);
          })),
        (f.paragraphs || []).length ? [el("h4", null, "The text in question"),
          f.paragraphs.map(function (p) {
            return p.sides.map(function (side) {
              return el("div", null, el("div", { class: "prov" }, side.harness + " · " + where(side.source)), el("pre", null, side.text));
            });
          })] : null,
        el("h4", null, "Remedy"),
        (f.remedies || []).length
          ? el("ul", { class: "plain" }, f.remedies.map(function (r) {
            return el("li", { class: "remedy" }, el("strong", null, r.harness), ": ", r.action);
          }))
          : el("p", { class: "muted" }, "No change is suggested for this finding."),
        (f.directories || []).length ? [el("h4", null, "Launch directories (" + f.directories.length + ")"),
          el("p", { class: "mono" }, f.directories.slice(0, 50).join(", ") + (f.directories.length > 50 ? ", ..." : ""))] : null,
      ]);
    }

    // Opens finding `i` and brings it into view (drawing more if needed).
    function reveal(i) {
      var e = document.getElementById("f-" + i);
      if (!e) {
        findingLimit = findings.length;
        drawFindings();
        e = document.getElementById("f-" + i);
      }
      if (e) {
        e.open = true;
        e.querySelector("summary").focus();
      }
    }

    // ---- problems and what cannot be known --------------------------------

    function diagnosticsOf(predicate) {
      var seen = {}, out = [];
      Object.keys(doc.configs || {}).forEach(function (h) {
        doc.configs[h].diagnostics.forEach(function (d) {
          if (!predicate(d)) return;
          var key = d.code + "\u0000" + d.message + "\u0000" + where(d.source);
          if (seen[key]) { seen[key].harnesses.push(h); return; }
          seen[key] = { d: d, harnesses: [h] };
          out.push(seen[key]);
        });
      });
      return out;
    }

    function problemItem(d, hs) {
      return el("li", null, badge(d.severity), code(d.code), " ", el("span", { class: "muted" }, hs.join(", ")), " ", d.message,
        d.source ? el("div", { class: "prov mono" }, where(d.source)) : null);
    }

    function drawProblems() {
      var s = sections.problems;
      if (kind === "diff") {
        ["introduced", "resolved"].forEach(function (g) {
          var list = doc.problems[g];
          s.appendChild(el("h3", null, g.charAt(0).toUpperCase() + g.slice(1) + " (" + list.length + ")"));
          s.appendChild(el("ul", { class: "plain" }, list.map(function (p) { return problemItem(p, p.harnesses); })));
        });
        s.appendChild(el("p", { class: "muted" }, doc.problems.unchanged + " unchanged."));
        return;
      }
      var problems = diagnosticsOf(function (d) { return d.severity === "warning" || d.severity === "error"; });
      (doc.refused || []).forEach(function (r) { problems.push({ d: r.diagnostic, harnesses: [r.harness] }); });
      s.appendChild(problems.length
        ? el("ul", { class: "plain" }, problems.map(function (p) { return problemItem(p.d, p.harnesses); }))
        : el("p", { class: "muted" }, "None found."));
      if (kind === "matrix") {
        s.appendChild(el("p", { class: "muted" }, "Listed for ", code(doc.context.cwd), "; ", String(doc.failing),
          " finding(s) and problem(s) fail the run."));
      }
    }

    function drawUnknowns() {
      var s = sections.unknowns;
      s.appendChild(el("p", null, "What each agent would also receive from outside the repository or from the session, which the analysis does not read, and what it assumes."));
      s.appendChild(el("div", { class: "pane" }, harnesses.filter(function (h) { return doc.configs[h]; }).map(function (h) {
        var c = doc.configs[h];
        return el("div", { class: "agent" }, el("h3", null, h),
          el("ul", null, c.assumptions.map(function (a) { return el("li", null, a); }),
            c.diagnostics.filter(function (d) { return d.severity === "info"; }).map(function (d) {
              return el("li", null, code(d.code), " ", d.message);
            })));
      })));
    }

    // ---- the behaviours an upgrade changes ---------------------------------

    // Each behaviour of the agent's version table that changes between the
    // two releases: its first release, what it does, its evidence, the id
    // that accepts it, and where it changes what the model receives.
    function drawBehaviours() {
      var s = sections.behaviours;
      var changes = doc.upgrade.changes;
      if (!changes.length) {
        s.appendChild(el("p", { class: "muted" }, "No bisected behaviour starts after ",
          code(doc.upgrade.from), " up to ", code(doc.upgrade.to),
          ": a change below comes from the profile of ", code(doc.upgrade.to), "."));
        return;
      }
      s.appendChild(el("ul", { class: "plain" }, changes.map(function (c) {
        var here = c.directories.length;
        return el("li", { class: "behaviour" },
          el("p", null, el("strong", null, c.since), " ", code(c.fact), " ",
            here ? (c.accepted ? el("span", { class: "muted" }, "accepted: " + c.accepted)
              : el("span", { class: "badge sev-high" }, "changes what the model receives"))
              : el("span", { class: "muted" }, "nothing here")),
          el("p", null, c.summary),
          el("p", { class: "prov" }, "Evidence: " + c.evidence),
          el("p", { class: "prov" }, "Accept it with ", code("[[accepted]] id = \"" + c.id + "\""),
            " in playbookdiff.toml"),
          here ? el("p", { class: "mono" }, "In " + here + " context(s): " + c.directories.slice(0, 50).join(", ") +
            (here > 50 ? ", ..." : "")) : null);
      })));
    }

    // ---- assembly ----------------------------------------------------------

    // After a change of the harnesses shown: everything.
    function redraw() {
      drawDirectories();
      drawPane();
      drawFindings();
    }

    // After a change of severities or kinds: what counts findings.
    function redrawFindings() {
      drawDirectories();
      drawPaneFindings();
      drawFindings();
    }

    var main = el("main", null, filters(),
      doc.upgrade ? section("behaviours", "Behaviours that change between the releases") : null,
      section("directories", "Launch directories"),
      section("pane", "What each agent receives"),
      section("findings", "Findings"),
      section("problems", "Problems in the repository"),
      kind === "diff" ? null : section("unknowns", "What the analysis cannot know"));
    document.body.appendChild(header());
    document.body.appendChild(main);
    if (kind === "diff" && doc.changedPaths.length) {
      sections.directories.parentNode.insertBefore(el("section", { "aria-label": "Changed paths" },
        el("h2", null, "Changed paths"),
        el("p", { class: "mono" }, doc.changedPaths.slice(0, 200).join(", ") + (doc.changedPaths.length > 200 ? ", ..." : ""))),
      sections.directories);
    }
    if (doc.upgrade) drawBehaviours();
    redraw();
    drawProblems();
    if (kind !== "diff") drawUnknowns();
    document.title = "PlaybookDiff " + (doc.upgrade ? "upgrade" : kind) + ": " + (kind === "diff" ? doc.repository : doc.context.repositoryRoot);
    document.body.dataset.ready = "true";
    // When the page became usable, for the browser test (docs/html.md).
    performance.mark("playbookdiff-ready");
  }
})();
