//! Instructions: pieces grouped into classes of the same file or the same
//! text, then one-sided classes compared paragraph by paragraph within the
//! same scope.
//!
//! 1. Every non-blank piece of every harness is a node; pieces that resolve
//!    to the same repository file, or whose normalized text is identical,
//!    join one class.
//! 2. A class every harness has: equal receptions agree; otherwise a
//!    `scope-gap` (medium; info when an approval or runtime condition is
//!    involved).
//! 3. A class only one harness receives goes to the bucket of its scope
//!    (reception, directory, path globs). When two or more harnesses have
//!    such classes in a bucket, their paragraphs are compared: a paragraph
//!    another side holds word for word agrees; for each two sides,
//!    differently worded ones are paired into one finding per bucket and
//!    pair of sides: `different` (medium) for the pairs at least half
//!    alike whose concrete terms differ (a command, a tool, a package
//!    manager, a path or a number: [`crate::concrete`]), `unknown` (info)
//!    for the others; what no other side holds or rewords is `missing` per
//!    file (medium; low when only headings or comments are left), with the
//!    paragraphs the others lack. Otherwise each one-sided class is
//!    `missing`; so is a class some but not all of several harnesses
//!    receive.

use crate::draft::FindingDraft;
use crate::finding::*;
use crate::id;
use crate::paragraphs::{self, Paragraph};
use crate::state::Reception;
use crate::{absence, display_name, names, Cell, DiagnosticIndex, Row, Rows};
use playbookdiff_model::{
    EffectiveAgentConfig, Harness, Instruction, InstructionKind, RepoPath, SourceRef,
};
use std::collections::{BTreeMap, HashMap};

struct Piece<'a> {
    side: &'a Side<'a>,
    inst: &'a Instruction,
    file: RepoPath,
    reception: Reception,
    /// The files this piece imports (pieces of the same harness whose
    /// `importedFrom` is this piece) that every harness receives: when set,
    /// the piece is a bridge to text already shared.
    bridged: Vec<RepoPath>,
    /// True when the harness receives the file but the analysis did not
    /// read its text (a file over the adapter's read limit: empty
    /// `content`, its size in `bytes`): the piece joins the class of its
    /// file only, never one by text, and its text is never compared.
    unknown: bool,
}

/// The scope of a one-sided class: where and when it is received.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Bucket {
    reception: Reception,
    dir: RepoPath,
    paths: Option<Vec<String>>,
}

impl Bucket {
    fn key(&self) -> String {
        let mut k = String::with_capacity(64);
        self.push_key(&mut k);
        k
    }

    /// Appends [`Bucket::key`] (`<reception>@<dir>[<glob>,…]`) to `k`.
    fn push_key(&self, k: &mut String) {
        k.push_str(self.reception.label());
        k.push('@');
        k.push_str(self.dir.as_str());
        if let Some(p) = &self.paths {
            k.push('[');
            for (i, g) in p.iter().enumerate() {
                if i > 0 {
                    k.push(',');
                }
                k.push_str(g);
            }
            k.push(']');
        }
    }

    fn describe(&self) -> String {
        let place = if self.dir.is_root() {
            "the repository root".to_string()
        } else {
            crate::code_span(self.dir.as_str())
        };
        match &self.paths {
            Some(p) => format!(
                "{} for paths matching {} ({place})",
                self.reception.phrase(),
                p.iter()
                    .map(|g| crate::code_span(g))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("{} in {place}", self.reception.phrase()),
        }
    }
}

struct Class {
    pieces: Vec<usize>,
    files: Vec<RepoPath>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi] = lo;
    }
}

fn file_of(i: &Instruction) -> RepoPath {
    i.source
        .resolved_path
        .clone()
        .unwrap_or_else(|| i.source.path.clone())
}

/// One harness's side of a comparison of instructions: the harness, its
/// configuration, its diagnostics (why it may lack a text), and `cell`,
/// its position among the harnesses compared (its cell in every row).
struct Side<'a> {
    cell: usize,
    harness: Harness,
    config: &'a EffectiveAgentConfig,
    diagnostics: &'a DiagnosticIndex<'a>,
}

/// Two sides are one when they are the same harness's.
impl PartialEq for Side<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cell == other.cell
    }
}

/// The harnesses of `sides`, in order.
fn harnesses(sides: &[&Side<'_>]) -> Vec<Harness> {
    sides.iter().map(|s| s.harness).collect()
}

/// What every step of one comparison of instructions reads: the sides
/// (one per harness, in the order compared), the pieces with their
/// normalized texts, the classes, and which ids are settled (see
/// [`crate::compare_settled`]).
#[derive(Clone, Copy)]
struct Cx<'a> {
    sides: &'a [Side<'a>],
    pieces: &'a [Piece<'a>],
    texts: &'a [String],
    classes: &'a [Class],
    settled: &'a dyn Fn(&str) -> bool,
}

impl<'a> Cx<'a> {
    /// The sides not in `present`, in order.
    fn others(&self, present: &[&Side<'a>]) -> Vec<&'a Side<'a>> {
        self.sides.iter().filter(|s| !present.contains(s)).collect()
    }
}

/// The best received piece of a class on each side, in the order of the
/// sides (`None` for a side without a piece of it).
type Best<'p, 'a> = Vec<Option<&'p Piece<'a>>>;

/// The one-sided classes by scope: bucket -> side (its `cell`) -> class
/// indices.
type Buckets = BTreeMap<Bucket, BTreeMap<usize, Vec<usize>>>;

/// Compares the instructions of `configs`: one row per class, then the
/// findings of each class and of each bucket of one-sided classes.
pub(crate) fn compare(
    configs: &[&EffectiveAgentConfig],
    diagnostics: &[DiagnosticIndex<'_>],
    rows: &mut Rows,
    findings: &mut Vec<Finding>,
    settled: &dyn Fn(&str) -> bool,
) {
    let first_row = rows.kept().map_or(0, |r| r.len());
    let sides: Vec<Side<'_>> = configs
        .iter()
        .zip(diagnostics)
        .enumerate()
        .map(|(cell, (config, diagnostics))| Side {
            cell,
            harness: config.harness,
            config,
            diagnostics,
        })
        .collect();
    let (mut pieces, texts) = collect_pieces(&sides);
    let classes = classes_of(&pieces, &texts);
    mark_bridges(&mut pieces, &classes, &sides);
    let cx = Cx {
        sides: &sides,
        pieces: &pieces,
        texts: &texts,
        classes: &classes,
        settled,
    };
    let mut buckets = Buckets::new();
    for (ci, class) in classes.iter().enumerate() {
        let best = best_pieces(&cx, class);
        let row = rows.push(|| class_row(class, &best));
        row.agree = judge_class(&cx, ci, &best, &mut buckets, findings);
    }
    for (bucket, by_side) in &buckets {
        compare_bucket(&cx, bucket, by_side, findings);
    }
    if let Some(rows) = rows.kept() {
        bridge_cells(&sides, &classes, rows, first_row);
    }
}

/// Every non-blank piece of every harness (and every received piece whose
/// text was not read), with its normalized text.
fn collect_pieces<'a>(sides: &'a [Side<'a>]) -> (Vec<Piece<'a>>, Vec<String>) {
    let mut pieces: Vec<Piece<'_>> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for side in sides {
        for inst in &side.config.instructions {
            let text = paragraphs::normalize(&without_import_spans(inst));
            let reception = Reception::of(inst.load_phase, inst.applicability);
            let unknown = inst.content.is_empty() && inst.bytes > 0 && reception.is_received();
            if text.is_empty() && !unknown {
                continue;
            }
            pieces.push(Piece {
                side,
                inst,
                file: file_of(inst),
                reception,
                bridged: Vec::new(),
                unknown,
            });
            texts.push(text);
        }
    }
    (pieces, texts)
}

/// The classes of `pieces`: pieces of one file or one text (`texts`, one
/// per piece) join one class; sorted by best reception, then files.
fn classes_of(pieces: &[Piece<'_>], texts: &[String]) -> Vec<Class> {
    let mut parent: Vec<usize> = (0..pieces.len()).collect();
    let mut by_file: HashMap<&RepoPath, usize> = HashMap::new();
    let mut by_text: HashMap<&str, usize> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Some(&j) = by_file.get(&p.file) {
            union(&mut parent, i, j);
        } else {
            by_file.insert(&p.file, i);
        }
        if p.unknown {
            continue;
        }
        if let Some(&j) = by_text.get(texts[i].as_str()) {
            union(&mut parent, i, j);
        } else {
            by_text.insert(texts[i].as_str(), i);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..pieces.len() {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut classes: Vec<Class> = groups
        .into_values()
        .map(|ps| {
            let mut files: Vec<RepoPath> = ps.iter().map(|&i| pieces[i].file.clone()).collect();
            files.sort();
            files.dedup();
            Class { pieces: ps, files }
        })
        .collect();
    classes.sort_by(|a, b| {
        let ka = a.pieces.iter().map(|&i| pieces[i].reception).min();
        let kb = b.pieces.iter().map(|&i| pieces[i].reception).min();
        ka.cmp(&kb).then_with(|| a.files.cmp(&b.files))
    });
    classes
}

/// The best received piece of `class` on each side.
fn best_pieces<'p, 'a>(cx: &Cx<'a>, class: &Class) -> Best<'p, 'a>
where
    'a: 'p,
{
    let mut best: Best<'p, 'a> = vec![None; cx.sides.len()];
    for &i in &class.pieces {
        let p: &'p Piece<'a> = &cx.pieces[i];
        let slot = &mut best[p.side.cell];
        if slot.is_none_or(|b| p.reception < b.reception) {
            *slot = Some(p);
        }
    }
    best
}

/// The row of `class`: one cell per side, from its `best` piece.
fn class_row(class: &Class, best: &Best<'_, '_>) -> Row {
    let cells = best
        .iter()
        .map(|b| match b {
            None => Cell::absent(),
            Some(p) => Cell::of(
                p.reception,
                note_of(p.inst),
                p.inst.load_phase,
                p.inst.applicability,
            )
            .in_layer_of(&p.inst.source),
        })
        .collect();
    Row::new(Category::Instruction, class_label(&class.files), cells)
}

/// Decides class `ci` (its `best` piece per harness): true when its row
/// agrees. A class every harness has at different states is a
/// `scope-gap`; a class one harness has goes to the bucket of its scope;
/// a class some of several harnesses lack is `missing`.
fn judge_class(
    cx: &Cx<'_>,
    ci: usize,
    best: &Best<'_, '_>,
    buckets: &mut Buckets,
    findings: &mut Vec<Finding>,
) -> bool {
    let class = &cx.classes[ci];
    let received: Vec<&Piece<'_>> = best
        .iter()
        .flatten()
        .copied()
        .filter(|p| p.reception.is_received())
        .collect();
    let Some(first_received) = received.first() else {
        return true;
    };
    let present: Vec<&Piece<'_>> = best.iter().flatten().copied().collect();
    if present.len() == cx.sides.len() {
        let first = trigger(present[0]);
        if present[1..].iter().all(|p| trigger(p) == first) {
            return true;
        }
        findings.push(scope_gap(cx, class, &present));
        return false;
    }
    if let [p] = present[..] {
        buckets
            .entry(bucket_of(p))
            .or_default()
            .entry(p.side.cell)
            .or_default()
            .push(ci);
        return false;
    }
    // More than two harnesses, some lacking it.
    let bucket = bucket_of(first_received);
    let received: Vec<&Side<'_>> = received.iter().map(|p| p.side).collect();
    findings.push(missing(cx, class, &received, &bucket, None));
    false
}

/// The one-sided classes of one bucket (`by_side`: side -> classes): when
/// two or more sides have such text there (all of it read), their
/// paragraphs are compared ([`reworded`]); otherwise each class is
/// `missing`.
fn compare_bucket(
    cx: &Cx<'_>,
    bucket: &Bucket,
    by_side: &BTreeMap<usize, Vec<usize>>,
    findings: &mut Vec<Finding>,
) {
    // A class whose text is unknown has no paragraphs to compare: each
    // class of such a bucket is compared whole.
    let unread = by_side
        .values()
        .flatten()
        .any(|&ci| cx.classes[ci].pieces.iter().all(|&i| cx.pieces[i].unknown));
    let sides: Vec<(&Side<'_>, &[usize])> = by_side
        .iter()
        .map(|(&cell, cis)| (&cx.sides[cell], cis.as_slice()))
        .collect();
    if sides.len() >= 2 && !unread {
        reworded(cx, bucket, &sides, findings);
        return;
    }
    for (side, cis) in sides {
        for &ci in cis {
            findings.push(missing(cx, &cx.classes[ci], &[side], bucket, None));
        }
    }
}

/// The cells of files a harness loads only as bridges. An instruction
/// whose whole text is `@path` imports (its `importSpans` cover it, as a
/// `CLAUDE.md` that holds only `@AGENTS.md`) is left out of the text
/// comparison, since what it imports is compared as pieces of its own; yet
/// the harness loads the file itself. Its cell in the file's row (the row
/// of the class holding that file, `rows[first_row + class index]`) reads
/// the file's reception with the note `bridge`; when no harness has a
/// piece of that file, the file gets a row of its own, which agrees (the
/// bridge adds no text).
fn bridge_cells(sides: &[Side<'_>], classes: &[Class], rows: &mut Vec<Row>, first_row: usize) {
    let class_rows = first_row + classes.len();
    for side in sides {
        for inst in &side.config.instructions {
            if inst.import_spans.is_empty()
                || !paragraphs::normalize(&without_import_spans(inst)).is_empty()
            {
                continue;
            }
            let file = file_of(inst);
            let reception = Reception::of(inst.load_phase, inst.applicability);
            let cell = Cell::of(
                reception,
                "bridge".to_string(),
                inst.load_phase,
                inst.applicability,
            )
            .in_layer_of(&inst.source);
            let at = classes
                .iter()
                .position(|cl| cl.files.contains(&file))
                .map(|ci| first_row + ci)
                .or_else(|| (class_rows..rows.len()).find(|&i| rows[i].label == file.as_str()));
            match at {
                Some(i) => {
                    let slot = &mut rows[i].cells[side.cell];
                    if slot.reception.is_none_or(|r| reception < r) {
                        *slot = cell;
                    }
                }
                None => {
                    let cells = sides
                        .iter()
                        .map(|s| {
                            if s == side {
                                cell.clone()
                            } else {
                                Cell::absent()
                            }
                        })
                        .collect();
                    let mut row = Row::new(Category::Instruction, file.to_string(), cells);
                    row.agree = true;
                    rows.push(row);
                }
            }
        }
    }
}

/// Sets [`Piece::bridged`]: for each piece imported by another piece of
/// the same harness, when every harness receives the imported text (its
/// class has a received piece of each), the importing piece bridges to it.
fn mark_bridges(pieces: &mut [Piece<'_>], classes: &[Class], sides: &[Side<'_>]) {
    let mut shared = vec![false; pieces.len()];
    for class in classes {
        let everyone = sides.iter().all(|side| {
            class
                .pieces
                .iter()
                .any(|&i| pieces[i].side == side && pieces[i].reception.is_received())
        });
        for &i in &class.pieces {
            shared[i] = everyone;
        }
    }
    let by_id: HashMap<(usize, &str), usize> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| ((p.side.cell, p.inst.id.as_str()), i))
        .collect();
    let mut found: Vec<(usize, RepoPath)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let Some(parent) = &p.inst.imported_from else {
            continue;
        };
        if let Some(&j) = by_id.get(&(p.side.cell, parent.as_str())) {
            if shared[i] {
                found.push((j, p.file.clone()));
            }
        }
    }
    for (j, file) in found {
        if !pieces[j].bridged.contains(&file) {
            pieces[j].bridged.push(file);
        }
    }
}

/// True when `paragraph` only points at one of `files` with an `@path`
/// import (`See @AGENTS.md`, `@./AGENTS.md`): the import spelled as the
/// file name or as its path relative to `dir` (optionally with `./`), and
/// nothing concrete besides.
fn is_import_reference(paragraph: &str, dir: &RepoPath, files: &[RepoPath]) -> bool {
    let mut rest = paragraph.to_string();
    let mut hit = false;
    for f in files {
        let mut spellings: Vec<String> = Vec::new();
        if let Some(rel) = f.strip_prefix(dir).filter(|r| !r.is_empty()) {
            spellings.push(format!("@./{rel}"));
            spellings.push(format!("@{rel}"));
        }
        spellings.push(format!("@{f}"));
        if let Some(name) = f.file_name() {
            spellings.push(format!("@./{name}"));
            spellings.push(format!("@{name}"));
        }
        for s in spellings {
            if rest.contains(&s) {
                rest = rest.replace(&s, " ");
                hit = true;
            }
        }
    }
    hit && rest.split_whitespace().count() <= 8 && crate::concrete::terms(&rest).is_empty()
}

/// When every piece of `class` on the `present` side bridges to text every
/// harness receives, and the rest of its text is headings, the import
/// lines and boilerplate ([`crate::concrete::is_boilerplate`]): the shared
/// files it imports.
fn boilerplate_bridge(
    pieces: &[Piece<'_>],
    class: &Class,
    present: &[&Side<'_>],
) -> Option<Vec<RepoPath>> {
    let mine: Vec<&Piece<'_>> = class
        .pieces
        .iter()
        .map(|&i| &pieces[i])
        .filter(|p| present.contains(&p.side))
        .collect();
    if mine.is_empty() || mine.iter().any(|p| p.bridged.is_empty()) {
        return None;
    }
    let all_boilerplate = mine.iter().all(|p| {
        let dir = p.file.parent().unwrap_or_else(RepoPath::root);
        paragraphs::split(&p.inst.content).iter().all(|para| {
            paragraphs::is_cosmetic(&para.text)
                || is_import_reference(&para.text, &dir, &p.bridged)
                || crate::concrete::is_boilerplate(&para.text)
        })
    });
    if !all_boilerplate {
        return None;
    }
    let mut files: Vec<RepoPath> = mine.iter().flat_map(|p| p.bridged.clone()).collect();
    files.sort();
    files.dedup();
    Some(files)
}

/// The content of `i` without its import references (`importSpans`): the
/// files they name are entries of their own, so a file that is nothing but
/// `@AGENTS.md` adds no text of its own to compare.
fn without_import_spans(i: &Instruction) -> std::borrow::Cow<'_, str> {
    if i.import_spans.is_empty() {
        return std::borrow::Cow::Borrowed(&i.content);
    }
    let mut out = String::with_capacity(i.content.len());
    let mut cur = 0usize;
    for s in &i.import_spans {
        let (a, b) = (s.start as usize, s.end as usize);
        if a < cur
            || b > i.content.len()
            || !i.content.is_char_boundary(a)
            || !i.content.is_char_boundary(b)
        {
            continue;
        }
        out.push_str(&i.content[cur..a]);
        cur = b;
    }
    out.push_str(&i.content[cur..]);
    std::borrow::Cow::Owned(out)
}

fn class_label(files: &[RepoPath]) -> String {
    files
        .iter()
        .map(RepoPath::as_str)
        .collect::<Vec<_>>()
        .join(" = ")
}

fn note_of(i: &Instruction) -> String {
    match i.kind {
        InstructionKind::Import | InstructionKind::Rule => i.kind.to_string(),
        _ => String::new(),
    }
}

fn trigger(p: &Piece<'_>) -> (Reception, Option<RepoPath>, Option<Vec<String>>) {
    match p.reception {
        Reception::OnDemand => (
            p.reception,
            Some(p.inst.applies_to.clone()),
            p.inst.paths.clone(),
        ),
        r => (r, None, None),
    }
}

fn item(h: Harness, i: &Instruction) -> FindingItem {
    FindingItem {
        harness: h,
        id: i.id.clone(),
        source: i.source.clone(),
        load_phase: i.load_phase,
        applicability: i.applicability,
        reason: i.reason.clone(),
    }
}

/// The files of one text, for a sentence: "`a`", "`a` and `b` (the same
/// text)", or, past [`FILES_NAMED`] files, the first ones and a count
/// ("`a`, `b`, `c` and 4997 more files (the same text)"), so that a text
/// repeated in thousands of files stays one readable line. Every file is
/// still listed in the finding's items.
fn files_phrase(files: &[RepoPath]) -> String {
    let quoted: Vec<String> = files
        .iter()
        .take(FILES_NAMED)
        .map(|f| crate::code_span(f.as_str()))
        .collect();
    match (files.len(), quoted.as_slice()) {
        (_, []) => String::new(),
        (1, [one]) => one.clone(),
        (n, [head @ .., last]) if n <= FILES_NAMED => {
            format!("{} and {last} (the same text)", head.join(", "))
        }
        (n, named) => format!(
            "{} and {} (the same text)",
            named.join(", "),
            playbookdiff_model::remedy::count(n - named.len(), "more file", "more files")
        ),
    }
}

/// How many files of one text [`files_phrase`] names.
const FILES_NAMED: usize = 3;

/// The `scope-gap` of `class`, which every side has (`best`: its best
/// piece on each side, in order) at different receptions or triggers.
fn scope_gap(cx: &Cx<'_>, class: &Class, best: &[&Piece<'_>]) -> Finding {
    let top = best.iter().map(|p| p.reception).min().expect("n >= 2");
    // Every harness at the same reception: the trigger directory or globs
    // differ, and the finding is symmetric.
    let (present, absent): (Vec<&Piece<'_>>, Vec<&Piece<'_>>) =
        best.iter().partition(|p| p.reception == top);
    let hs = |v: &[&Piece<'_>]| v.iter().map(|p| p.side.harness).collect::<Vec<_>>();
    let direction = if absent.is_empty() {
        id::symmetric(best.len())
    } else if absent.iter().any(|p| p.reception == Reception::NotLoaded) {
        id::only(&hs(&present))
    } else {
        id::first(&hs(&present))
    };
    let conditional = best.iter().any(|p| p.reception == Reception::Conditional);
    let severity = if conditional {
        FindingSeverity::Info
    } else {
        FindingSeverity::Medium
    };
    let top_piece = present[0];
    let dir = top_piece.inst.applies_to.clone();
    let key = format!(
        "files={}",
        class
            .files
            .iter()
            .map(RepoPath::as_str)
            .collect::<Vec<_>>()
            .join(",")
    );
    let sides: Vec<(Harness, Reception)> =
        best.iter().map(|p| (p.side.harness, p.reception)).collect();
    let mut message = format!(
        "{}: {}.",
        files_phrase(&class.files),
        crate::state::sides_phrase(&sides, "receives it", "receive it")
    );
    if let Some(first) = message.get(..1) {
        message = first.to_uppercase() + &message[1..];
    }
    let items = class
        .pieces
        .iter()
        .map(|&i| item(cx.pieces[i].side.harness, cx.pieces[i].inst))
        .collect();
    let absences = absent
        .iter()
        .map(|p| crate::Absence {
            harness: p.side.harness,
            reason: p.inst.reason.clone(),
        })
        .collect();
    let mut f = FindingDraft {
        category: Category::Instruction,
        kind: FindingType::ScopeGap,
        severity,
        direction,
        slug: id::dir_slug(&dir),
        key,
        present_in: hs(&present),
        absent_from: hs(&absent),
        items,
        message,
        scope: Some(dir.clone()),
        subject: Some(Subject::Instruction {
            dir,
            files: class.files.clone(),
            paths: top_piece.inst.paths.clone(),
            bridge: Vec::new(),
        }),
    }
    .build();
    f.absences = absences;
    f
}

/// A `missing` finding for `class`, received by `present` and absent from
/// every other harness. `surplus`: the paragraphs left over after a
/// comparison with differently worded text, when there was one.
fn missing(
    cx: &Cx<'_>,
    class: &Class,
    present: &[&Side<'_>],
    bucket: &Bucket,
    surplus: Option<&[(usize, &Paragraph)]>,
) -> Finding {
    let absent = cx.others(present);
    Missing {
        cx,
        class,
        present,
        absent: &absent,
        bucket,
        surplus,
    }
    .finding()
}

/// One `missing` finding being built (see [`missing`]).
struct Missing<'m, 'a> {
    cx: &'m Cx<'a>,
    class: &'m Class,
    present: &'m [&'m Side<'a>],
    absent: &'m [&'m Side<'a>],
    bucket: &'m Bucket,
    surplus: Option<&'m [(usize, &'m Paragraph)]>,
}

impl Missing<'_, '_> {
    /// The finding; in outline when its id is settled (what orders,
    /// counts, accepts and excludes it, without the message, absences,
    /// paragraphs and subject that only the kept copy shows).
    fn finding(&self) -> Finding {
        let mut draft = self.draft();
        // The id first: a settled finding needs only its severity of what
        // follows.
        let id = draft.id();
        if (self.cx.settled)(&id) {
            draft.severity = self.severity(self.cosmetic() || self.bridge().is_some());
            return draft.build_as(id);
        }
        let cosmetic = self.cosmetic();
        let bridge = self.bridge();
        draft.severity = self.severity(cosmetic || bridge.is_some());
        // The files named once for the message and every absence.
        let files = files_phrase(&self.class.files);
        draft.message = self.message(&files, cosmetic, bridge.as_deref());
        draft.subject = Some(Subject::Instruction {
            dir: self.bucket.dir.clone(),
            files: self.class.files.clone(),
            paths: self.bucket.paths.clone(),
            bridge: bridge.unwrap_or_default(),
        });
        let mut f = draft.build_as(id);
        f.absences = self.absences(&files);
        f.paragraphs = self.paragraphs();
        f
    }

    /// The id's parts, the sides and the evidence.
    fn draft(&self) -> FindingDraft {
        let (cx, class) = (self.cx, self.class);
        let mut key = String::with_capacity(128);
        self.bucket.push_key(&mut key);
        key.push_str("|files=");
        for (i, f) in class.files.iter().enumerate() {
            if i > 0 {
                key.push(',');
            }
            key.push_str(f.as_str());
        }
        let items: Vec<FindingItem> = class
            .pieces
            .iter()
            .filter(|&&i| self.present.contains(&cx.pieces[i].side))
            .map(|&i| item(cx.pieces[i].side.harness, cx.pieces[i].inst))
            .collect();
        FindingDraft {
            category: Category::Instruction,
            kind: FindingType::Missing,
            severity: FindingSeverity::Medium,
            direction: id::only(&harnesses(self.present)),
            slug: id::dir_slug(&self.bucket.dir),
            key,
            present_in: harnesses(self.present),
            absent_from: harnesses(self.absent),
            items,
            message: String::new(),
            scope: Some(self.bucket.dir.clone()),
            subject: None,
        }
    }

    /// Info when every present piece is conditional; low when only
    /// headings or comments, or a bridge among boilerplate, are left.
    fn severity(&self, slight: bool) -> FindingSeverity {
        let (pieces, present) = (self.cx.pieces, self.present);
        let all_conditional = self
            .class
            .pieces
            .iter()
            .filter(|&&i| present.contains(&pieces[i].side))
            .all(|&i| pieces[i].reception == Reception::Conditional);
        if all_conditional {
            FindingSeverity::Info
        } else if slight {
            FindingSeverity::Low
        } else {
            FindingSeverity::Medium
        }
    }

    /// True when only headings or comments are left.
    fn cosmetic(&self) -> bool {
        let (pieces, texts) = (self.cx.pieces, self.cx.texts);
        match self.surplus {
            Some(s) => s.iter().all(|(_, p)| paragraphs::is_cosmetic(&p.text)),
            None => self
                .class
                .pieces
                .iter()
                .all(|&i| !pieces[i].unknown && paragraphs::is_cosmetic(&texts[i])),
        }
    }

    /// The shared files the class only bridges to ([`boilerplate_bridge`]).
    fn bridge(&self) -> Option<Vec<RepoPath>> {
        match self.surplus {
            None => boilerplate_bridge(self.cx.pieces, self.class, self.present),
            Some(_) => None,
        }
    }

    /// The sentence, naming `files` ([`files_phrase`]).
    fn message(&self, files: &str, cosmetic: bool, bridge: Option<&[RepoPath]>) -> String {
        let cx = self.cx;
        let (present, absent) = (self.present, self.absent);
        let who = names(&harnesses(present));
        let s = if present.len() == 1 { "s" } else { "" };
        let others = names(&harnesses(absent));
        let receive = if absent.len() == 1 {
            "receives"
        } else {
            "receive"
        };
        // Where and when the present sides receive it: the bucket's words
        // when they share it, else each side's own.
        let scope = own_scopes(cx.pieces, self.class, present, self.bucket);
        if let Some(shared) = bridge {
            let imported: Vec<String> = shared
                .iter()
                .map(|f| crate::code_span(f.as_str()))
                .collect();
            return format!(
                "{who} receive{s} {files}{scope}, which imports {} as {others} {receive} it; the rest of its text is boilerplate (no command, tool, path or number), and {others} {receive} nothing equivalent.",
                imported.join(" and "),
            );
        }
        let what = match self.surplus {
            Some(p) => format!(
                "{} paragraph{} of {files}",
                p.len(),
                if p.len() == 1 { "" } else { "s" },
            ),
            None => format!("the text of {files}"),
        };
        let only = if cosmetic {
            " (headings or comments only)"
        } else {
            ""
        };
        format!("{who} receive{s} {what}{scope}; {others} {receive} nothing equivalent{only}.")
    }

    /// Why each absent harness lacks it: its diagnostics about the files,
    /// else a sentence naming `files`.
    fn absences(&self, files: &str) -> Vec<crate::Absence> {
        self.absent
            .iter()
            .map(|side| {
                absence(
                    side.diagnostics,
                    &self.class.files,
                    format!(
                        "{} has no instruction from {files} and none with the same text under this context.",
                        display_name(side.harness),
                    ),
                )
            })
            .collect()
    }

    /// The paragraphs the absent side lacks: the surplus, else every
    /// paragraph of the class on the present side.
    fn paragraphs(&self) -> Vec<ParagraphDiff> {
        let cx = self.cx;
        match self.surplus {
            Some(s) => s
                .iter()
                .map(|(pi, p)| ParagraphDiff {
                    sides: vec![paragraph_side(&cx.pieces[*pi], p)],
                    diff: None,
                    similarity: None,
                })
                .collect(),
            None => whole_paragraphs(cx.pieces, self.class, self.present),
        }
    }
}

/// Where and when the `present` harnesses receive `class`, to follow the
/// files in a sentence: `" " + bucket.describe()` when every piece they
/// receive is in `bucket`'s scope; else the scopes of the pieces each
/// receives
/// ([`pieces_scope`]), once when every side has the same ("on demand,
/// each file in its own directory") and otherwise side by side (": Claude
/// Code on demand for paths matching `**/*.ts` (the repository root),
/// OpenCode at startup in the repository root"), so that one sentence
/// never gives every side, or every file, the loadPhase or scope of one.
fn own_scopes(
    pieces: &[Piece<'_>],
    class: &Class,
    present: &[&Side<'_>],
    bucket: &Bucket,
) -> String {
    // The common case, without building a scope per piece: every side
    // receives pieces of the class, all in `bucket`'s scope.
    let in_bucket = |p: &Piece<'_>| {
        p.reception == bucket.reception
            && p.inst.applies_to == bucket.dir
            && p.inst.paths == bucket.paths
    };
    let shared_by_all = present.iter().all(|&side| {
        let mut mine = class
            .pieces
            .iter()
            .map(|&i| &pieces[i])
            .filter(|p| p.side == side && p.reception.is_received())
            .peekable();
        mine.peek().is_some() && mine.all(in_bucket)
    });
    if shared_by_all {
        return format!(" {}", bucket.describe());
    }
    let sides: Vec<(Harness, String)> = present
        .iter()
        .map(|&side| {
            let mine: Vec<&Piece<'_>> = class
                .pieces
                .iter()
                .map(|&i| &pieces[i])
                .filter(|p| p.side == side && p.reception.is_received())
                .collect();
            (side.harness, pieces_scope(&mine))
        })
        .collect();
    let shared = bucket.describe();
    if sides.iter().all(|(_, d)| *d == shared) {
        return format!(" {shared}");
    }
    if sides.iter().all(|(_, d)| *d == sides[0].1) {
        return format!(" {}", sides[0].1);
    }
    let each: Vec<String> = sides
        .iter()
        .map(|(h, d)| format!("{} {d}", display_name(*h)))
        .collect();
    format!(": {}", each.join(", "))
}

/// Where and when the paragraphs of a `reworded` finding are received,
/// from the pieces they come from (`involved`, indices into `pieces`):
/// `bucket`'s words when every piece is in its scope; else each side's
/// own ("by Claude Code on demand in `a` and by Codex at startup in the
/// repository root").
fn paired_scope(pieces: &[Piece<'_>], involved: &[usize], bucket: &Bucket) -> String {
    let shared = bucket.describe();
    let mut sides: Vec<(&Side<'_>, Vec<&Piece<'_>>)> = Vec::new();
    for p in involved.iter().map(|&i| &pieces[i]) {
        match sides.iter_mut().find(|(side, _)| *side == p.side) {
            Some((_, v)) => v.push(p),
            None => sides.push((p.side, vec![p])),
        }
    }
    let each: Vec<(Harness, String)> = sides
        .iter()
        .map(|(side, v)| (side.harness, pieces_scope(v)))
        .collect();
    if each.iter().all(|(_, d)| *d == shared) {
        return shared;
    }
    if each.iter().all(|(_, d)| *d == each[0].1) {
        return each[0].1.clone();
    }
    let by: Vec<String> = each
        .iter()
        .map(|(h, d)| format!("by {} {d}", display_name(*h)))
        .collect();
    by.join(" and ")
}

/// Where and when one harness receives `mine` (its pieces of one class):
/// the scope they share ([`Bucket::describe`]); for pieces of one
/// reception and globs in several directories, each in the directory of
/// its own file ("on demand, each file in its own directory") or the
/// directories named; else each scope, joined.
fn pieces_scope(mine: &[&Piece<'_>]) -> String {
    let mut scopes: Vec<Bucket> = mine.iter().map(|p| bucket_of(p)).collect();
    scopes.sort();
    scopes.dedup();
    let Some(first) = scopes.first() else {
        return String::new();
    };
    if scopes.len() == 1 {
        return first.describe();
    }
    let one_kind = scopes
        .iter()
        .all(|b| b.reception == first.reception && b.paths == first.paths);
    if !one_kind {
        let each: Vec<String> = scopes.iter().map(Bucket::describe).collect();
        return each.join(", ");
    }
    let own = mine
        .iter()
        .all(|p| p.file.parent().as_ref() == Some(&p.inst.applies_to));
    let place = if own {
        "each file in its own directory".to_string()
    } else {
        let dirs: Vec<RepoPath> = scopes.iter().map(|b| b.dir.clone()).collect();
        format!("in {}", places_phrase(&dirs))
    };
    match &first.paths {
        Some(p) => format!(
            "{} for paths matching {}, {place}",
            first.reception.phrase(),
            p.iter()
                .map(|g| crate::code_span(g))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!("{}, {place}", first.reception.phrase()),
    }
}

/// Directories for a sentence, the first [`FILES_NAMED`] named: "`a`,
/// `b` and `c`", "`a`, `b`, `c` and 4 more directories".
fn places_phrase(dirs: &[RepoPath]) -> String {
    let quoted: Vec<String> = dirs
        .iter()
        .take(FILES_NAMED)
        .map(|d| {
            if d.is_root() {
                "the repository root".to_string()
            } else {
                crate::code_span(d.as_str())
            }
        })
        .collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, head)) if dirs.len() <= FILES_NAMED => {
            format!("{} and {last}", head.join(", "))
        }
        Some(_) => format!(
            "{} and {}",
            quoted.join(", "),
            playbookdiff_model::remedy::count(
                dirs.len() - quoted.len(),
                "more directory",
                "more directories"
            )
        ),
    }
}

/// The scope a piece is received in.
fn bucket_of(p: &Piece<'_>) -> Bucket {
    Bucket {
        reception: p.reception,
        dir: p.inst.applies_to.clone(),
        paths: p.inst.paths.clone(),
    }
}

/// Every paragraph the present side receives from `class` (one piece per
/// file), headings and comments left out: the text another side lacks.
fn whole_paragraphs(
    pieces: &[Piece<'_>],
    class: &Class,
    present: &[&Side<'_>],
) -> Vec<ParagraphDiff> {
    let mut seen: Vec<&RepoPath> = Vec::new();
    let mut out = Vec::new();
    for &pi in &class.pieces {
        let piece = &pieces[pi];
        if !present.contains(&piece.side) || seen.contains(&&piece.file) {
            continue;
        }
        seen.push(&piece.file);
        for p in paragraphs::split(&piece.inst.content) {
            if paragraphs::is_cosmetic(&p.text) {
                continue;
            }
            out.push(ParagraphDiff {
                sides: vec![paragraph_side(piece, &p)],
                diff: None,
                similarity: None,
            });
        }
    }
    out
}

/// The side of one paragraph `p` of `piece`: its harness, its lines, its
/// text.
fn paragraph_side(piece: &Piece<'_>, p: &Paragraph) -> ParagraphSide {
    let mut source: SourceRef = piece.inst.source.clone();
    if let Some(l) = source.lines {
        source = source.with_lines(l.start + p.first_line, l.start + p.last_line);
    }
    ParagraphSide {
        harness: piece.side.harness,
        source,
        text: p.text.clone(),
    }
}

/// The paragraphs of a harness's one-sided classes in a bucket, with the
/// piece and class each comes from.
fn paragraphs_of(cx: &Cx<'_>, side: &Side<'_>, cis: &[usize]) -> Vec<Para> {
    let (pieces, classes) = (cx.pieces, cx.classes);
    let mut out = Vec::new();
    for &ci in cis {
        for &pi in &classes[ci].pieces {
            if pieces[pi].side != side {
                continue;
            }
            for p in paragraphs::split(&without_import_spans(pieces[pi].inst)) {
                out.push((ci, pi, p));
            }
        }
    }
    out
}

/// The word similarity (0 to 1) from which two paired paragraphs read as
/// one paragraph reworded, so that a change of concrete terms between them
/// is a change of what the agent is told rather than two unrelated
/// paragraphs paired for lack of better.
const REWORDED: f32 = 0.5;

/// A paragraph of one side of a bucket: the class and the piece it comes
/// from, and the paragraph.
type Para = (usize, usize, Paragraph);

/// Two paragraphs paired as one reworded, and their word similarity.
type Pair<'p> = (&'p Para, &'p Para, f32);

/// One side of a bucket in [`reworded`]: the side, its one-sided classes
/// there, its paragraphs whose text no other side holds, and which of
/// those were paired with another side's paragraph.
struct Unmatched<'p, 'a> {
    side: &'p Side<'a>,
    classes: &'p [usize],
    paras: Vec<&'p Para>,
    paired: Vec<bool>,
}

impl<'p, 'a> Unmatched<'p, 'a> {
    /// The side `k` of `sides`, from the paragraphs of every side (`all`,
    /// in the same order): those of its own that no other side holds.
    fn new(sides: &[(&'p Side<'a>, &'p [usize])], all: &'p [Vec<Para>], k: usize) -> Self {
        let theirs: std::collections::HashSet<&str> = all
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .flat_map(|(_, v)| v.iter().map(|x| x.2.text.as_str()))
            .collect();
        let paras: Vec<&Para> = all[k]
            .iter()
            .filter(|x| !theirs.contains(x.2.text.as_str()))
            .collect();
        Unmatched {
            side: sides[k].0,
            classes: sides[k].1,
            paired: vec![false; paras.len()],
            paras,
        }
    }

    /// The indices of its paragraphs that are more than headings or
    /// comments.
    fn substantive(&self) -> Vec<usize> {
        (0..self.paras.len())
            .filter(|&i| !paragraphs::is_cosmetic(&self.paras[i].2.text))
            .collect()
    }
}

/// Two or more sides each receive text the others lack in the same scope:
/// a paragraph another side holds word for word agrees; for each two
/// sides, differently worded paragraphs are paired into one `different`
/// (their concrete terms differ) and one `unknown` (the others); what no
/// other side holds or rewords is `missing` per file. With two sides, the
/// one pair.
fn reworded(
    cx: &Cx<'_>,
    bucket: &Bucket,
    sides: &[(&Side<'_>, &[usize])],
    findings: &mut Vec<Finding>,
) {
    let all: Vec<Vec<Para>> = sides
        .iter()
        .map(|(side, cis)| paragraphs_of(cx, side, cis))
        .collect();
    let mut us: Vec<Unmatched<'_, '_>> = (0..sides.len())
        .map(|k| Unmatched::new(sides, &all, k))
        .collect();
    for a in 0..us.len() {
        let (head, tail) = us.split_at_mut(a + 1);
        for b in tail {
            pair_two(cx, bucket, (&mut head[a], b), findings);
        }
    }
    for u in &us {
        surplus(cx, bucket, u, findings);
    }
}

/// Pairs the paragraphs of sides `a` and `b` that read as one paragraph
/// reworded ([`paragraphs::pair`]), marks them paired, and adds the
/// pairs' findings: those at least half alike whose concrete terms differ
/// (a command, a tool, a path, a number) are a `different`; the others an
/// `unknown`.
fn pair_two(
    cx: &Cx<'_>,
    bucket: &Bucket,
    (a, b): (&mut Unmatched<'_, '_>, &mut Unmatched<'_, '_>),
    findings: &mut Vec<Finding>,
) {
    let (ca, cb) = (a.substantive(), b.substantive());
    let ta: Vec<&str> = ca.iter().map(|&i| a.paras[i].2.text.as_str()).collect();
    let tb: Vec<&str> = cb.iter().map(|&i| b.paras[i].2.text.as_str()).collect();
    let pairs = paragraphs::pair(&ta, &tb);
    for &(i, j, _) in &pairs {
        a.paired[ca[i]] = true;
        b.paired[cb[j]] = true;
    }
    let matched: Vec<Pair<'_>> = pairs
        .iter()
        .map(|&(i, j, s)| (a.paras[ca[i]], b.paras[cb[j]], s))
        .collect();
    let (concrete, worded): (Vec<&Pair<'_>>, Vec<&Pair<'_>>) =
        matched.iter().partition(|(x, y, s)| {
            *s >= REWORDED && crate::concrete::change(&x.2.text, &y.2.text).is_some()
        });
    for (kind, group) in [
        (FindingType::Different, concrete),
        (FindingType::Unknown, worded),
    ] {
        if !group.is_empty() {
            findings.push(pair_finding(cx, bucket, kind, &group, (a.side, b.side)));
        }
    }
}

/// The paragraphs of side `u` that no other side holds or rewords: one
/// `missing` per class (one pass over the paragraphs, not one per class).
fn surplus(cx: &Cx<'_>, bucket: &Bucket, u: &Unmatched<'_, '_>, findings: &mut Vec<Finding>) {
    let mut left: HashMap<usize, Vec<(usize, &Paragraph)>> = HashMap::new();
    for (k, x) in u.paras.iter().enumerate() {
        if !u.paired[k] {
            left.entry(x.0).or_default().push((x.1, &x.2));
        }
    }
    for &ci in u.classes {
        let Some(left) = left.get(&ci) else { continue };
        findings.push(missing(cx, &cx.classes[ci], &[u.side], bucket, Some(left)));
    }
}

/// The one `different` or `unknown` (`kind`) finding of the `pairs` of a
/// bucket between harnesses `a` and `b`, with each pair side by side.
fn pair_finding(
    cx: &Cx<'_>,
    bucket: &Bucket,
    kind: FindingType,
    pairs: &[&Pair<'_>],
    (a, b): (&Side<'_>, &Side<'_>),
) -> Finding {
    let pieces = cx.pieces;
    let (ha, hb) = (a.harness, b.harness);
    let mut diffs = Vec::new();
    let mut items: Vec<FindingItem> = Vec::new();
    let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut first_change = None;
    let mut involved: Vec<usize> = Vec::new();
    for &&(x, y, s) in pairs {
        for pi in [x.1, y.1] {
            if seen.insert(pi) {
                items.push(item(pieces[pi].side.harness, pieces[pi].inst));
                involved.push(pi);
            }
        }
        if first_change.is_none() {
            first_change = crate::concrete::change(&x.2.text, &y.2.text);
        }
        diffs.push(ParagraphDiff {
            sides: vec![
                paragraph_side(&pieces[x.1], &x.2),
                paragraph_side(&pieces[y.1], &y.2),
            ],
            diff: Some(paragraphs::word_diff(&x.2.text, &y.2.text)),
            similarity: Some((s * 100.0).round() as u8),
        });
    }
    let scope = paired_scope(pieces, &involved, bucket);
    let n = pairs.len();
    let (pl, (an, bn)) = (
        if n == 1 { "" } else { "s" },
        (display_name(ha), display_name(hb)),
    );
    let (severity, message) = match kind {
        FindingType::Different => {
            let side = |h: Harness, t: &Option<String>| match t {
                Some(t) => format!("{} reads {}", display_name(h), crate::code_span(t)),
                None => format!("{} has no such term", display_name(h)),
            };
            let (ta, tb) = first_change.unwrap_or_default();
            let give = if n == 1 { "gives" } else { "give" };
            (
                FindingSeverity::Medium,
                format!(
                    "{n} paragraph{pl} received {scope} {give} a different command, tool, path or number for {an} and {bn}: {}, {}.",
                    side(ha, &ta),
                    side(hb, &tb),
                ),
            )
        }
        _ => {
            let (is, mean) = if n == 1 {
                ("is", "it means")
            } else {
                ("are", "they mean")
            };
            (
                FindingSeverity::Info,
                format!(
                    "{n} paragraph{pl} received {scope} {is} worded differently for {an} and {bn}; whether {mean} the same cannot be decided without reading them."
                ),
            )
        }
    };
    let mut f = FindingDraft {
        category: Category::Instruction,
        kind,
        severity,
        direction: id::symmetric(cx.sides.len()),
        slug: id::dir_slug(&bucket.dir),
        key: format!("{}|pair={},{}", bucket.key(), ha.as_str(), hb.as_str()),
        present_in: vec![ha, hb],
        absent_from: Vec::new(),
        items,
        message,
        scope: Some(bucket.dir.clone()),
        subject: None,
    }
    .build();
    f.paragraphs = diffs;
    f
}
