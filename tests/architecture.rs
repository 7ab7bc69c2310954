//! The layering the compiler cannot see.
//!
//! 1. `src/engine` imports nothing above it (no catalog, no i18n, no UI). Unit tests inside the
//!    engine may use the catalog as fixtures, so only the code before a file's first
//!    `#[cfg(test)]` is checked (and `proptests.rs`, a test-only module, not at all).
//! 2. The engine's top-level modules, and the UI's rooms (the top-level files and folders of
//!    `src/ui`), each import only from their own layer or the layers below, in the order stated
//!    here and in the module doc of `src/engine/mod.rs` and `src/ui/mod.rs` (a test holds the
//!    two tables equal), and never in a cycle. An import is a `use` of the tree's path
//!    (`crate::engine::X`, `super::X`, `super::super::X`, resolved to the top-level module it
//!    names; `use super::*` counts) or such a path in code. Test code (`#[cfg(test)]` items and
//!    test-only files) is not counted: a test may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn engine_imports_nothing_above_it() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"), &mut files);
    assert!(files.len() > 20, "found the engine's files");
    let mut offenders = Vec::new();
    for path in files.iter().filter(|p| !p.ends_with("proptests.rs")) {
        let text = std::fs::read_to_string(path).expect("readable source");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                let after = &rest[at + "crate::".len()..];
                if !after.starts_with("engine") {
                    offenders.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
                rest = after;
            }
        }
    }
    assert!(offenders.is_empty(), "the engine must not import above itself:\n{}", offenders.join("\n"));
}

/// A folder of `src` whose top-level modules ("rooms") are built in layers.
struct Tree {
    /// The folder, below the crate's root: `src/engine`.
    dir: &'static str,
    /// The path code names it by: `crate::engine`.
    path: &'static str,
    /// Lowest first: what the layer holds, and its rooms. `mod` is the folder's own `mod.rs`.
    layers: &'static [(&'static str, &'static [&'static str])],
}

/// The engine's order (the same table as `src/engine/mod.rs`'s module doc).
const ENGINE: Tree = Tree {
    dir: "src/engine",
    path: "crate::engine",
    layers: &[
        (
            "numbers, errors, JSON reading, number formats, assumptions, the words a formula is recorded with",
            &["num", "checked", "error", "json_read", "closest", "precision", "assumption", "workload", "bound", "stack"],
        ),
        ("the record of how a number was obtained", &["derivation"]),
        (
            "things: GPUs, their links and efficiencies, model architectures and their tensors, GGUF files",
            &["gpu", "links", "efficiency", "model", "gguf"],
        ),
        ("inputs: the scenario, its hardware resolved, the catalog lookup", &["scenario", "hardware", "lookup", "speculation"]),
        ("computations: memory, time, the solvers", &["memory", "perf", "solvers"]),
        (
            "the report, evaluate, and the tools' arithmetic",
            &[
                "report", "evaluate", "fit", "headroom", "local", "cloud", "cluster", "mig", "diagnose", "lab",
                "launch", "peaks", "allreduce",
            ],
        ),
        ("the engine's front: the names code outside it imports", &["mod"]),
    ],
};

/// The UI's order (the same table as `src/ui/mod.rs`'s module doc).
const UI: Tree = Tree {
    dir: "src/ui",
    path: "crate::ui",
    layers: &[
        ("reading the app's own addresses", &["address"]),
        ("where the page is, and moving between pages (in the browser)", &["nav"]),
        ("what the components ask of the browser, the same natively", &["browser"]),
        (
            "components",
            &["chrome", "figure", "exercise", "search", "plan", "tools", "lab", "widgets", "classroom"],
        ),
        ("the estimator, and the chapter widget that shows any component", &["estimator"]),
        ("the pages whose content is a component", &["pages"]),
        (
            "putting components in place: mounted in the browser, rendered natively, timed",
            &["mount", "snapshot", "bench"],
        ),
        ("the app", &["mod"]),
    ],
};

/// One import of another room.
#[derive(Clone, Debug)]
struct Import {
    from: String,
    to: String,
    /// `file:line`.
    at: String,
    /// The path as written (`super::perf::roofline::Term`).
    name: String,
}

/// `src` with comments, string and character literals blanked (newlines kept, so line numbers
/// stay); lifetimes are kept.
fn clean(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, s: &[char]| {
        for ch in s {
            out.push(if *ch == '\n' { '\n' } else { ' ' });
        }
    };
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        let ident_before = i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_');
        if at(i) == '/' && at(i + 1) == '/' {
            let mut j = i;
            while j < c.len() && at(j) != '\n' {
                j += 1;
            }
            blank(&mut out, &c[i..j]);
            i = j;
        } else if at(i) == '/' && at(i + 1) == '*' {
            let (mut j, mut depth) = (i + 2, 1);
            while j < c.len() && depth > 0 {
                if at(j) == '/' && at(j + 1) == '*' {
                    depth += 1;
                    j += 2;
                } else if at(j) == '*' && at(j + 1) == '/' {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &c[i..j.min(c.len())]);
            i = j;
        } else if !ident_before && (at(i) == 'r' || (at(i) == 'b' && at(i + 1) == 'r')) && {
            let mut k = i + if at(i) == 'b' { 2 } else { 1 };
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // A raw string: r"…", r#"…"#, br"…".
            let mut k = i + if at(i) == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            let mut j = k + 1;
            while j < c.len() && !(at(j) == '"' && (1..=hashes).all(|h| at(j + h) == '#')) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(c.len());
            blank(&mut out, &c[i..end]);
            i = end;
        } else if at(i) == '"' {
            let mut j = i + 1;
            while j < c.len() && at(j) != '"' {
                j += if at(j) == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(c.len());
            blank(&mut out, &c[i..end]);
            i = end;
        } else if at(i) == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal ('x', '\n', '\u{7f}'); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if at(j) == '\\' {
                j += 2;
            }
            while j < c.len() && at(j) != '\'' {
                j += 1;
            }
            let end = (j + 1).min(c.len());
            blank(&mut out, &c[i..end]);
            i = end;
        } else {
            out.push(at(i));
            i += 1;
        }
    }
    out
}

/// `code` (cleaned) with every `#[cfg(test)]` item blanked: from the attribute to the item's
/// `;` or its closing `}`.
fn without_tests(code: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(ATTR) {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, ch) in item.char_indices().skip(ATTR.len()) {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        out.extend(item[..end].chars().map(|ch| if ch == '\n' { '\n' } else { ' ' }));
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Colons,
    Punct(char),
}

/// The tokens of cleaned code that matter for paths, each with its line.
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Colons, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::{d as e, self}, f::*}` gives `a::b`, `a::c::d`,
/// `a::c`, `a::f::*`), reading from `toks[*pos]` to the end of this tree.
fn use_paths(toks: &[(Tok, usize)], pos: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*pos).map(|t| &t.0) {
            Some(Tok::Ident(id)) if id == "as" => {
                *pos += 2; // `as name`
                out.push(path);
                return;
            }
            // `self` in a group names the group's own path.
            Some(Tok::Ident(id)) if id == "self" && !path.is_empty() => *pos += 1,
            Some(Tok::Ident(id)) => {
                path.push(id.clone());
                *pos += 1;
            }
            Some(Tok::Colons) => *pos += 1,
            Some(Tok::Punct('*')) => {
                path.push("*".into());
                *pos += 1;
                out.push(path);
                return;
            }
            Some(Tok::Punct('{')) => {
                *pos += 1;
                loop {
                    match toks.get(*pos).map(|t| &t.0) {
                        Some(Tok::Punct('}')) => {
                            *pos += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *pos += 1,
                        None => return,
                        _ => use_paths(toks, pos, &path, out),
                    }
                }
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// The room a path names, or `None` when it leads outside the tree (std, another folder of the
/// crate) or stays inside the file's own room. `module` is the module the path is written in
/// (below the tree), `tree` the tree's path without `crate`.
fn room_of(
    path: &[String],
    module: &[String],
    is_root: bool,
    tree: &[&str],
    rooms: &BTreeSet<String>,
) -> Option<String> {
    let first = path.first()?.as_str();
    let rest: Vec<String> = match first {
        "crate" => {
            let below = path.get(1..)?;
            if below.len() < tree.len() || below.iter().zip(tree).any(|(a, b)| a != b) {
                return None;
            }
            below[tree.len()..].to_vec()
        }
        "super" | "self" => {
            let mut cur = module.to_vec();
            let mut k = 0;
            if first == "self" {
                k = 1;
            } else {
                while path.get(k).is_some_and(|s| s == "super") {
                    cur.pop()?;
                    k += 1;
                }
            }
            cur.extend(path[k..].iter().cloned());
            cur
        }
        room if is_root && rooms.contains(room) => path.to_vec(),
        _ => return None,
    };
    let own = module.first().map_or("mod", String::as_str);
    let to = match rest.first() {
        Some(r) if rooms.contains(r) => r.clone(),
        // The tree's own `mod.rs`: an item there or re-exported by it, or the whole of it.
        _ => "mod".to_string(),
    };
    (to != own).then_some(to)
}

/// The imports of other rooms in one file (at `rel`, below the tree's folder).
fn file_imports(tree: &Tree, rel: &str, text: &str, rooms: &BTreeSet<String>) -> Vec<Import> {
    let mut module: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if module.last().is_some_and(|m| m == "mod") {
        module.pop();
    }
    let is_root = module.is_empty();
    let from = module.first().cloned().unwrap_or_else(|| "mod".into());
    let tree_path: Vec<&str> = tree.path.split("::").skip(1).collect();
    let toks = tokens(&without_tests(&clean(text)));
    let mut out = Vec::new();
    // Inline modules (`mod live { … }`) change what `super` means inside them.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let mut record = |path: Vec<String>, line: usize, inline: &[(String, usize)]| {
        let here: Vec<String> = module.iter().cloned().chain(inline.iter().map(|(m, _)| m.clone())).collect();
        if let Some(to) = room_of(&path, &here, is_root, &tree_path, rooms) {
            out.push(Import {
                from: from.clone(),
                to,
                at: format!("{}/{rel}:{line}", tree.dir),
                name: path.join("::"),
            });
        }
    };
    while i < toks.len() {
        let (tok, line) = &toks[i];
        let next = toks.get(i + 1).map(|t| &t.0);
        match tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                while inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            Tok::Ident(kw) if kw == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) = (next, toks.get(i + 2).map(|t| &t.0))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(kw) if kw == "use" => {
                let mut pos = i + 1;
                let mut paths = Vec::new();
                use_paths(&toks, &mut pos, &[], &mut paths);
                for p in paths {
                    record(p, *line, &inline);
                }
                i = pos;
                continue;
            }
            Tok::Ident(first)
                if next == Some(&Tok::Colons)
                    && (first == "crate" || first == "super" || (is_root && rooms.contains(first)))
                    && !(i > 0 && toks[i - 1].0 == Tok::Colons) =>
            {
                let mut path = vec![first.clone()];
                let mut k = i + 1;
                while toks.get(k).map(|t| &t.0) == Some(&Tok::Colons) {
                    match toks.get(k + 1).map(|t| &t.0) {
                        Some(Tok::Ident(s)) => path.push(s.clone()),
                        _ => break,
                    }
                    k += 2;
                }
                record(path, *line, &inline);
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `files` (paths below the tree's folder, and texts) without test code: the files a
/// `#[cfg(test)] mod name;` declares.
fn without_test_files(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut test_only = BTreeSet::new();
    for (rel, text) in files {
        let code = clean(text);
        let dir = match rel.strip_suffix("mod.rs") {
            Some(d) => d.to_string(),
            None => format!("{}/", rel.trim_end_matches(".rs")),
        };
        let mut rest = code.as_str();
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let words: Vec<&str> = rest.split_whitespace().take(2).collect();
            if let ["mod", name] = words[..] {
                if let Some(name) = name.strip_suffix(';') {
                    test_only.insert(format!("{dir}{name}.rs"));
                    test_only.insert(format!("{dir}{name}/"));
                }
            }
        }
    }
    files
        .iter()
        .filter(|(rel, _)| {
            !test_only.iter().any(|t| rel == t || (t.ends_with('/') && rel.starts_with(t.as_str())))
        })
        .cloned()
        .collect()
}

/// Every import between the rooms of `files` (without test files).
fn imports(tree: &Tree, files: &[(String, String)]) -> Vec<Import> {
    let rooms = rooms_of(files);
    files.iter().flat_map(|(rel, text)| file_imports(tree, rel, text, &rooms)).collect()
}

/// What is wrong with `imports` against the tree's order: rooms missing from the table (or
/// named there but absent), imports that go up, and cycles.
fn problems(tree: &Tree, rooms: &BTreeSet<String>, imports: &[Import]) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> =
        tree.layers.iter().enumerate().flat_map(|(n, (_, rs))| rs.iter().map(move |r| (*r, n))).collect();
    let mut out = Vec::new();
    for r in rooms {
        if !layer_of.contains_key(r.as_str()) {
            out.push(format!(
                "{}/{r}: not in the table of layers (place it in tests/architecture.rs and the module doc)",
                tree.dir
            ));
        }
    }
    for r in layer_of.keys() {
        if !rooms.contains(*r) {
            out.push(format!("{}: the table names `{r}`, which does not exist", tree.dir));
        }
    }
    let describe = |r: &str| {
        layer_of.get(r).map_or_else(
            || format!("{r} (no layer)"),
            |n| format!("{r} (layer {}: {})", n + 1, tree.layers[*n].0),
        )
    };
    for im in imports {
        if let (Some(f), Some(t)) = (layer_of.get(im.from.as_str()), layer_of.get(im.to.as_str())) {
            if t > f {
                out.push(format!(
                    "{} imports {}, a higher layer: {} uses `{}`",
                    describe(&im.from),
                    describe(&im.to),
                    im.at,
                    im.name
                ));
            }
        }
    }
    // Cycles: an import a → b where b reaches a again. Every import up is named above, so a
    // cycle left is one inside a layer: among the imports within one layer.
    let mut edges: BTreeMap<(&str, &str), &Import> = BTreeMap::new();
    for im in imports {
        let same = layer_of.get(im.from.as_str()).is_some_and(|f| layer_of.get(im.to.as_str()) == Some(f));
        if same {
            edges.entry((im.from.as_str(), im.to.as_str())).or_insert(im);
        }
    }
    let mut seen = BTreeSet::new();
    for &(a, b) in edges.keys() {
        if let Some(back) = chain(&edges, b, a) {
            let mut ring: Vec<&str> = vec![a];
            ring.extend(back);
            let key: BTreeSet<&str> = ring.iter().copied().collect();
            if !seen.insert(key) {
                continue;
            }
            let steps: Vec<String> = ring
                .windows(2)
                .map(|w| {
                    let im = edges[&(w[0], w[1])];
                    format!("{} → {} ({} uses `{}`)", w[0], w[1], im.at, im.name)
                })
                .collect();
            out.push(format!("a cycle in {}: {}", describe(a), steps.join(", ")));
        }
    }
    out
}

/// The shortest chain of rooms from `start` to `goal` along `edges`, both ends included.
fn chain<'a>(
    edges: &BTreeMap<(&'a str, &'a str), &Import>,
    start: &'a str,
    goal: &'a str,
) -> Option<Vec<&'a str>> {
    let mut came: BTreeMap<&str, &str> = BTreeMap::new();
    let mut seen = BTreeSet::from([start]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(r) = queue.pop_front() {
        if r == goal {
            let mut out = vec![goal];
            let mut at = goal;
            while let Some(prev) = came.get(at) {
                out.push(prev);
                at = prev;
            }
            out.reverse();
            return Some(out);
        }
        for &(x, y) in edges.keys() {
            if x == r && seen.insert(y) {
                came.insert(y, x);
                queue.push_back(y);
            }
        }
    }
    None
}

fn read_tree(tree: &Tree) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(tree.dir);
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&dir).expect("below the folder").to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(p).expect("readable source"))
        })
        .collect()
}

/// The rooms of a tree: its top-level files and folders, and its `mod.rs` (`mod`).
fn rooms_of(files: &[(String, String)]) -> BTreeSet<String> {
    files
        .iter()
        .map(|(rel, _)| rel.split('/').next().unwrap_or("").trim_end_matches(".rs").to_string())
        .collect()
}

/// The table in a tree's module doc: rows `//! | 3 | what | [`gpu`], [`links`] |`, each
/// layer's number and the names in backticks in its last cell.
fn doc_table(tree: &Tree) -> Vec<(usize, BTreeSet<String>)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(tree.dir).join("mod.rs"))
        .expect("the tree's mod.rs");
    doc.lines()
        .filter_map(|l| l.strip_prefix("//! |"))
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
            let n = cells.first()?.parse::<usize>().ok()?;
            let names = cells.last()?.split('`').skip(1).step_by(2).map(str::to_string).collect();
            Some((n, names))
        })
        .collect()
}

fn check(tree: &Tree) {
    let files = without_test_files(&read_tree(tree));
    let rooms = rooms_of(&files);
    let found = imports(tree, &files);
    // Not vacuous: the scan sees the imports there are.
    assert!(found.len() > 40, "{}: only {} imports found", tree.dir, found.len());
    let wrong = problems(tree, &rooms, &found);
    assert!(wrong.is_empty(), "{} is not in its layers:\n{}", tree.dir, wrong.join("\n"));
    let table: Vec<(usize, BTreeSet<String>)> = tree
        .layers
        .iter()
        .enumerate()
        .map(|(n, (_, rs))| (n + 1, rs.iter().map(|r| r.to_string()).collect()))
        .collect();
    assert_eq!(
        doc_table(tree),
        table,
        "{}/mod.rs's table of layers differs from tests/architecture.rs's",
        tree.dir
    );
}

#[test]
fn engine_modules_import_only_their_layer_and_below() {
    check(&ENGINE);
}

#[test]
fn ui_rooms_import_only_their_layer_and_below() {
    check(&UI);
}

/// The checker on a small tree: it must see an upward import, one through `super::super`, one
/// by a glob and one in code, and a cycle; and not what tests import.
#[test]
fn the_checker_finds_upward_imports_and_cycles() {
    const T: Tree = Tree {
        dir: "src/t",
        path: "crate::t",
        layers: &[("low", &["a", "b"]), ("high", &["c"]), ("front", &["mod"])],
    };
    let files: Vec<(String, String)> = [
        ("mod.rs", "pub mod a;\npub mod b;\npub mod c;\npub use c::Z;\n#[cfg(test)]\nmod proptests;\n"),
        // An upward import in a grouped use, one in code, and a cycle a ↔ b.
        ("a.rs", "use super::{b::B, c::{self, C}};\nfn f() -> u8 { let s = \"super::c::X\"; crate::t::c::g('}') }\n"),
        ("b/mod.rs", "pub mod deep;\n// use super::c::C;\n#[cfg(test)]\nmod tests { use super::super::c::*; }\n"),
        ("b/deep.rs", "use super::super::a::A;\nmod inner { use super::super::super::c::*; }\n"),
        ("c.rs", "use super::a::A;\n"),
        ("proptests.rs", "use super::c::C;\n"),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let files = without_test_files(&files);
    let found = imports(&T, &files);
    let names: Vec<String> = found.iter().map(|i| format!("{}>{} {}", i.from, i.to, i.name)).collect();
    assert_eq!(
        names,
        [
            "mod>c c::Z",
            "a>b super::b::B",
            "a>c super::c",
            "a>c super::c::C",
            "a>c crate::t::c::g",
            "b>a super::super::a::A",
            "b>c super::super::super::c::*",
            "c>a super::a::A",
        ]
    );
    let wrong = problems(&T, &rooms_of(&files), &found);
    assert!(
        wrong
            .iter()
            .any(|w| w.contains("a (layer 1: low) imports c (layer 2: high)") && w.contains("src/t/a.rs:1")),
        "{wrong:#?}"
    );
    assert!(
        wrong.iter().any(|w| w.contains("b (layer 1: low) imports c") && w.contains("src/t/b/deep.rs:2")),
        "{wrong:#?}"
    );
    assert!(
        wrong.iter().any(|w| w.starts_with("a cycle in a (layer 1: low): a → b")
            && w.contains("b → a (src/t/b/deep.rs:1 uses `super::super::a::A`)")),
        "{wrong:#?}"
    );
    assert!(wrong.iter().all(|w| !w.contains("proptests")), "{wrong:#?}");
    // The table must name every room, and only rooms that exist.
    let mut more = rooms_of(&files);
    more.insert("d".into());
    assert!(problems(&T, &more, &[]).iter().any(|w| w.contains("src/t/d: not in the table")));
}
