//! A SCORM 1.2 package of one assignment: the offline course (the site in one HTML file) opened
//! at the assignment's student page, with a small launcher that reports the student's score to
//! the learning-management system through the SCORM 1.2 runtime API.
//!
//! The package is a ZIP archive ([`zip::stored`]) of
//! - `imsmanifest.xml`: an IMS Content Packaging 1.1.2 manifest with ADL's SCORM 1.2 extension
//!   namespace (`adlcp_rootv1p2`): metadata `ADL SCORM` / `1.2`, one organization, one item and
//!   one resource of `adlcp:scormtype="sco"` whose launch file is `index.html`, its files
//!   listed (ADL, *SCORM Version 1.2 Content Aggregation Model*, 2001, sections 2.3.4 "Content
//!   Packaging" and 2.3.5 "Manifest file", the `<resource>` and `adlcp:scormtype` entries);
//! - `index.html`: the SCO. It finds the LMS's `API` object by walking `window.parent` (at most
//!   seven levels up) and then `window.opener`'s parents, as ADL's API discovery algorithm does
//!   (*SCORM 1.2 Run-Time Environment*, section 3.3.6.1 "Finding the API"), calls
//!   `LMSInitialize("")`, reads `cmi.core.student_name` and `cmi.core.student_id` and what the
//!   LMS kept of an earlier session (`cmi.suspend_data`: the hand-in code), and loads
//!   `course.html#/{lang}/classroom/do/?a=TOKEN&s=NAME&h=CODE` in a frame the size of the window
//!   (the student page resumes from the code where this browser has less: another computer). The
//!   student page posts `{type: "gpu-primer:result", student, score, max, answered, code, final}`
//!   to its parent after each check (`final: false`) and on *Make my hand-in code*
//!   (`final: true`); the SCO takes it from that frame only and sets `cmi.core.score.raw`
//!   (right answers as a percentage, 0 to 100, two decimals), `cmi.core.score.min` = 0,
//!   `cmi.core.score.max` = 100, `cmi.core.lesson_status` (`incomplete` after a check,
//!   `completed` once handed in: the teacher grades, so the package does not judge passed or
//!   failed), `cmi.suspend_data` (the hand-in code, when within SCORM 1.2's 4096 characters)
//!   and `cmi.core.exit`, then `LMSCommit("")`; on leaving it sets `cmi.core.session_time`
//!   and calls `LMSFinish("")`, which persists it (RTE section 3.4 data model: `cmi.core.score.raw` "a
//!   normalized value between 0 and 100", `cmi.suspend_data` CMIString4096,
//!   `cmi.core.session_time` CMITimespan `HHHH:MM:SS.SS`). Without an API (the file opened
//!   outside an LMS) it says so in both languages and still shows the assignment, whose
//!   hand-in code works as everywhere else;
//! - `course.html`: the offline file, unchanged.

use super::zip;
use crate::classroom::assignment::Assignment;
use crate::html::escape as esc;
use crate::i18n::Lang;

/// The message type the student page posts to its parent frame.
pub const MESSAGE_TYPE: &str = "gpu-primer:result";

/// The longest `cmi.suspend_data` SCORM 1.2 allows (CMIString4096).
pub const SUSPEND_DATA_MAX: usize = 4096;

/// The first bytes of the offline file carry its mark (`<html … data-offline …>`, written by
/// tools/single-file.mjs).
const OFFLINE_MARK: &str = "data-offline";

/// Whether `bytes` look like the site's offline file: an HTML file whose root element has
/// `data-offline` within its first 4 KiB.
pub fn is_offline_file(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let head = String::from_utf8_lossy(head);
    head.trim_start().to_ascii_lowercase().starts_with("<!doctype html") && head.contains(OFFLINE_MARK)
}

/// The package's files, in order: manifest, launcher, course.
pub fn files(a: &Assignment, lang: Lang, offline: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    a.check().map_err(|e| crate::i18n::classroom::assignment_error(&e, Lang::En))?;
    if !is_offline_file(offline) {
        return Err(
            "the course file is not gpu-primer's offline file (dist/gpu-primer-offline.html: an HTML \
                    file whose <html> carries data-offline)"
                .into(),
        );
    }
    Ok(vec![
        ("imsmanifest.xml".into(), manifest(a, lang).into_bytes()),
        ("index.html".into(), launcher(a, lang).into_bytes()),
        ("course.html".into(), offline.to_vec()),
    ])
}

/// The package as a ZIP archive.
pub fn package(a: &Assignment, lang: Lang, offline: &[u8]) -> Result<Vec<u8>, String> {
    Ok(zip::stored(&files(a, lang, offline)?))
}

/// The title the LMS lists: the assignment's, else the student page's.
fn title(a: &Assignment, lang: Lang) -> String {
    let t = a.title.trim();
    if t.is_empty() {
        format!("{} ({})", lang.class().do_title, a.class.trim())
    } else {
        t.to_string()
    }
}

/// `imsmanifest.xml`: IMS CP 1.1.2 with the ADL SCORM 1.2 extensions.
pub fn manifest(a: &Assignment, lang: Lang) -> String {
    let id = format!("gpu-primer-{:08x}-{}", a.fingerprint(), lang.code());
    let title = esc(&title(a, lang));
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <manifest identifier=\"{id}\" version=\"1.0\" \
         xmlns=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2\" \
         xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_rootv1p2\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd \
         http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd \
         http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd\">\n  \
         <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>1.2</schemaversion>\n  </metadata>\n  \
         <organizations default=\"ORG-1\">\n    <organization identifier=\"ORG-1\">\n      \
         <title>{title}</title>\n      \
         <item identifier=\"ITEM-1\" identifierref=\"SCO-1\" isvisible=\"true\">\n        \
         <title>{title}</title>\n      </item>\n    </organization>\n  </organizations>\n  \
         <resources>\n    \
         <resource identifier=\"SCO-1\" type=\"webcontent\" adlcp:scormtype=\"sco\" href=\"index.html\">\n      \
         <file href=\"index.html\"/>\n      <file href=\"course.html\"/>\n    </resource>\n  </resources>\n\
         </manifest>\n"
    )
}

/// A JavaScript string literal of `s` (JSON's, with `<` escaped so that no `</script>` closes
/// the script early).
fn js_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()).replace('<', "\\u003c")
}

/// `index.html`: the SCO that talks to the LMS and shows the assignment in a frame.
pub fn launcher(a: &Assignment, lang: Lang) -> String {
    let title = esc(&title(a, lang));
    let course = js_string(&format!("course.html#/{}/classroom/do/?a={}", lang.code(), a.to_token()));
    let kind = js_string(MESSAGE_TYPE);
    format!(
        r#"<!doctype html>
<html lang="{lang_tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
html, body {{ margin: 0; height: 100%; }}
body {{ display: flex; flex-direction: column; font: 16px/1.5 system-ui, sans-serif; }}
#no-lms {{ margin: 0; padding: .75em 1em; background: #fff4d6; color: #3d2b00; border-bottom: 1px solid #d9b85c; }}
#no-lms p {{ margin: 0; }}
#course {{ flex: 1; width: 100%; border: 0; }}
</style>
</head>
<body>
<div id="no-lms" role="alert" hidden>
<p lang="zh-CN">找不到学习管理系统（LMS）的 SCORM 1.2 接口，所以不会记录成绩。请从课程平台里打开这个作业；在这里做完后，可以把交作业码发给老师。</p>
<p lang="en">No SCORM 1.2 API of a learning-management system (LMS) was found, so no score is recorded. Open this assignment from your course platform; done here, you can send the hand-in code to your teacher.</p>
</div>
<iframe id="course" title="{title}"></iframe>
<script>
(function () {{
  "use strict";
  var COURSE = {course};
  var KIND = {kind};
  var SUSPEND_MAX = {suspend_max};
  // ADL's API discovery (SCORM 1.2 RTE 3.3.6.1): up the parents, then the opener's.
  function findIn(win) {{
    try {{
      for (var tries = 0; win.API == null && win.parent != null && win.parent != win; tries++) {{
        if (tries > 7) return null;
        win = win.parent;
      }}
      return win.API || null;
    }} catch (e) {{ return null; }}
  }}
  var api = findIn(window);
  if (api == null && window.opener != null) api = findIn(window.opener);
  var started = false;
  if (api) {{ started = String(api.LMSInitialize("")) === "true"; }}
  function get(name) {{ return started ? String(api.LMSGetValue(name) || "") : ""; }}
  function set(name, value) {{ if (started) api.LMSSetValue(name, String(value)); }}
  var name = get("cmi.core.student_name") || get("cmi.core.student_id");
  var status = get("cmi.core.lesson_status");
  if (status === "" || status === "not attempted") set("cmi.core.lesson_status", "incomplete");
  var done = status === "completed" || status === "passed";
  if (!started) document.getElementById("no-lms").hidden = false;
  var frame = document.getElementById("course");
  // What the LMS kept from an earlier session (the hand-in code) goes with the name, so work
  // begun on another computer comes back.
  var kept = name ? get("cmi.suspend_data") : "";
  frame.src = COURSE + (name ? "&s=" + encodeURIComponent(name) : "") +
    (kept ? "&h=" + encodeURIComponent(kept) : "");
  var began = Date.now();
  window.addEventListener("message", function (e) {{
    if (e.source !== frame.contentWindow) return;
    if (e.origin !== "null" && e.origin !== location.origin) return;
    var d = e.data;
    if (!d || d.type !== KIND || !started) return;
    var max = Number(d.max), right = Number(d.score);
    if (!(max > 0) || !(right >= 0) || right > max) return;
    if (d.final === true) done = true;
    set("cmi.core.score.min", 0);
    set("cmi.core.score.max", 100);
    set("cmi.core.score.raw", Math.round(10000 * right / max) / 100);
    set("cmi.core.lesson_status", done ? "completed" : "incomplete");
    set("cmi.core.exit", done ? "" : "suspend");
    if (typeof d.code === "string" && d.code.length <= SUSPEND_MAX) set("cmi.suspend_data", d.code);
    api.LMSCommit("");
  }});
  // CMITimespan: HHHH:MM:SS.SS.
  // CMITimespan HHHH:MM:SS.SS, split from whole centiseconds (rounding after the split could
  // write 00:00:60.00).
  function span(ms) {{
    var cs = Math.round(ms / 10), h = Math.floor(cs / 360000), m = Math.floor(cs / 6000) % 60;
    var s = Math.floor(cs / 100) % 60, c = cs % 100;
    function two(n) {{ return (n < 10 ? "0" : "") + n; }}
    return ("000" + h).slice(-4) + ":" + two(m) + ":" + two(s) + "." + two(c);
  }}
  // LMSFinish persists what was set (RTE 3.3.2.2); no LMSCommit here: a page being left may not
  // send a synchronous request (Chromium refuses it), and every result was committed already.
  function finish() {{
    if (!started) return;
    started = false;
    api.LMSSetValue("cmi.core.session_time", span(Date.now() - began));
    api.LMSFinish("");
  }}
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);
}})();
</script>
</body>
</html>
"#,
        lang_tag = super::lang_tag(lang),
        suspend_max = SUSPEND_DATA_MAX,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assignment(title: &str) -> Assignment {
        Assignment {
            title: title.into(),
            class: "CS 101".into(),
            due: String::new(),
            exercises: vec![crate::classroom::all()[0].id.to_string()],
            show_hints: true,
            show_solutions: true,
            show_answer_key: false,
        }
    }

    const OFFLINE: &[u8] =
        b"<!doctype html>\n<html lang=\"en\" data-offline data-root=\"./\"><body></body></html>\n";

    /// The stored entries' names and contents, read back from the archive's local headers.
    fn entries(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        let mut p = 0;
        while zip[p..p + 4] == [0x50, 0x4b, 0x03, 0x04] {
            let size = u32::from_le_bytes(zip[p + 18..p + 22].try_into().unwrap()) as usize;
            let name_len = u16::from_le_bytes([zip[p + 26], zip[p + 27]]) as usize;
            let name = String::from_utf8(zip[p + 30..p + 30 + name_len].to_vec()).unwrap();
            let start = p + 30 + name_len;
            out.push((name, zip[start..start + size].to_vec()));
            p = start + size;
        }
        out
    }

    #[test]
    fn the_package_holds_the_manifest_the_sco_and_the_course_unchanged() {
        for lang in Lang::ALL {
            let a = assignment("Week 3 <KV>");
            let z = package(&a, lang, OFFLINE).unwrap();
            let files = entries(&z);
            let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["imsmanifest.xml", "index.html", "course.html"]);
            assert_eq!(files[2].1, OFFLINE);
            // The same request gives the same bytes.
            assert_eq!(package(&a, lang, OFFLINE).unwrap(), z);
        }
    }

    #[test]
    fn the_manifest_is_scorm_1_2_with_one_sco() {
        let m = manifest(&assignment("Week 3 <KV>"), Lang::En);
        for must in [
            "xmlns=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2\"",
            "xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_rootv1p2\"",
            "<schema>ADL SCORM</schema>",
            "<schemaversion>1.2</schemaversion>",
            "<organizations default=\"ORG-1\">",
            "identifierref=\"SCO-1\"",
            "adlcp:scormtype=\"sco\" href=\"index.html\"",
            "<file href=\"index.html\"/>",
            "<file href=\"course.html\"/>",
            "<title>Week 3 &lt;KV&gt;</title>",
        ] {
            assert!(m.contains(must), "{must} in {m}");
        }
        assert_eq!(m.matches("<organization ").count(), 1);
        assert_eq!(m.matches("<item ").count(), 1);
        assert_eq!(m.matches("<resource ").count(), 1);
        // An untitled assignment is named by the student page's title and the class.
        let untitled = manifest(&assignment(" "), Lang::Zh);
        assert!(untitled.contains(&format!("<title>{} (CS 101)</title>", Lang::Zh.class().do_title)));
    }

    #[test]
    fn the_sco_opens_the_students_page_and_speaks_scorm_1_2() {
        for lang in Lang::ALL {
            let a = assignment("</script><b>");
            let html = launcher(&a, lang);
            let course = format!("course.html#/{}/classroom/do/?a={}", lang.code(), a.to_token());
            assert!(html.contains(&format!("var COURSE = \"{course}\"")), "{html}");
            assert!(html.contains(MESSAGE_TYPE));
            for call in [
                "LMSInitialize(\"\")",
                "LMSGetValue(name)",
                "cmi.core.student_name",
                "cmi.core.score.raw",
                "cmi.core.lesson_status",
                "cmi.suspend_data",
                "LMSCommit(\"\")",
                "LMSFinish(\"\")",
                "e.source !== frame.contentWindow",
                "window.opener",
            ] {
                assert!(html.contains(call), "{call}");
            }
            // The title is escaped: one script only, the page's own.
            assert_eq!(html.matches("</script>").count(), 1);
            // The no-LMS message is in both languages.
            assert!(html.contains("lang=\"zh-CN\">找不到") && html.contains("lang=\"en\">No SCORM 1.2 API"));
        }
    }

    #[test]
    fn a_package_needs_a_checked_assignment_and_the_offline_file() {
        let mut a = assignment("x");
        assert!(package(&a, Lang::En, b"<!doctype html><html><body>404</body></html>")
            .unwrap_err()
            .contains("not gpu-primer's offline file"));
        assert!(package(&a, Lang::En, b"").is_err());
        a.class = String::new();
        assert!(package(&a, Lang::En, OFFLINE).is_err());
    }
}
