//! Two base strings compared part by part: the method, then the base
//! string URI (scheme, host, port, path, and how their URI is encoded), then
//! the parameters (in `params`).
//!
//! Their base string was written by a mistaken implementation, so it is read
//! leniently: either hex case, stray `%`, a parameter string left unencoded.
//! An encoding of theirs is explained by the simplest rule of the catalogue
//! that reproduces it (`explaining_rule`), which names its causes.

mod matching;
mod params;

use super::catalogue::{rule_causes, Cause};
use super::finding::{Component, Explanation, Finding};
use super::lenient::{lenient_decode, parse, split_uri, Parsed};
use super::model::Model;
use super::variant::explaining_rule;
use crate::pipeline::url::default_port;
use crate::text::encode::percent_encode;
use params::compare_params;

/// Compares our base string (from `model`'s request) with theirs.
pub(crate) fn compare(model: &Model, ours: &str, theirs: &str) -> Explanation {
    if ours == theirs.trim() {
        return Explanation::matching();
    }
    let mut ex = Explanation {
        matches: false,
        findings: Vec::new(),
        their_base_string: Some(theirs.trim().to_owned()),
    };
    let (Some(o), Some(t)) = (parse(ours), parse(theirs)) else {
        ex.findings.push(Finding::new(
            Cause::Unexplained,
            Component::Parameters,
            ours,
            theirs,
            "their text is not a signature base string (METHOD&URI&PARAMETERS, RFC 5849 §3.4.1.1)",
        ));
        return ex;
    };
    let (mut protocol, mut rest) = (Vec::new(), Vec::new());
    compare_params(model, &o, &t, &mut protocol, &mut rest);
    ex.findings.extend(protocol);
    compare_method(&o, &t, &mut ex.findings);
    compare_uri(&o, &t, &mut ex.findings);
    ex.findings.extend(rest);
    if ex.findings.is_empty() {
        ex.findings.push(Finding::new(
            Cause::Unexplained,
            Component::Parameters,
            ours,
            theirs.trim(),
            "the base strings differ in a way the catalogue does not name",
        ));
    }
    ex
}

fn compare_method(o: &Parsed<'_>, t: &Parsed<'_>, out: &mut Vec<Finding>) {
    if o.method == t.method {
        return;
    }
    let detail = if o.method.eq_ignore_ascii_case(t.method) {
        "the method is not upper-cased (RFC 5849 §3.4.1.1)".to_owned()
    } else {
        format!("they signed {} where the request is {}", t.method, o.method)
    };
    out.push(Finding::new(
        Cause::MethodDiffers,
        Component::Method,
        o.method,
        t.method,
        detail,
    ));
}

fn compare_uri(o: &Parsed<'_>, t: &Parsed<'_>, out: &mut Vec<Finding>) {
    let (os, oh, op, opath) = split_uri(&o.uri);
    let (ts, th, tp, tpath) = split_uri(&t.uri);
    let uri = |cause, detail: &str| Finding::new(cause, Component::Uri, &o.uri, &t.uri, detail);
    if os != ts || oh != th {
        if os.eq_ignore_ascii_case(ts) && oh.eq_ignore_ascii_case(th) {
            out.push(uri(
                Cause::SchemeHostCase,
                "scheme and host are not lower-cased (RFC 5849 §3.4.1.2)",
            ));
        } else {
            if !os.eq_ignore_ascii_case(ts) {
                out.push(uri(
                    Cause::SchemeDiffers,
                    &format!("they signed {ts}:, we {os}:"),
                ));
            }
            if !oh.eq_ignore_ascii_case(th) {
                out.push(uri(
                    Cause::HostDiffers,
                    &format!("they signed host {th}, we {oh}"),
                ));
            }
        }
    }
    let default = default_port(ts.eq_ignore_ascii_case("https")).to_string();
    match (op, tp) {
        (None, Some(p)) if p == default => out.push(uri(
            Cause::DefaultPortKept,
            &format!("they keep the default port :{p}, which RFC 5849 §3.4.1.2 drops"),
        )),
        (Some(p), None) => out.push(uri(
            Cause::PortDropped,
            &format!("they drop port :{p}, which is not the default and is signed"),
        )),
        (a, b) if a != b => out.push(uri(Cause::PortDiffers, "they sign another port")),
        _ => {}
    }
    if opath != tpath {
        let detail = if tpath.is_empty() {
            "they sign an empty path, where RFC 5849 §3.4.1.2 signs `/`"
        } else if lenient_decode(opath.as_bytes(), false) == lenient_decode(tpath.as_bytes(), false)
        {
            "the same path, escaped differently (the path is signed exactly as sent)"
        } else if opath.trim_end_matches('/') == tpath.trim_end_matches('/') {
            "the paths differ by a trailing `/`"
        } else {
            "they sign another path"
        };
        out.push(uri(Cause::PathDiffers, detail));
    }
    // Their URI's own encoding.
    if t.uri_enc.contains("://") {
        out.push(uri(Cause::NotEncoded, "the base string URI is not encoded"));
    } else if let Some(rule) =
        explaining_rule(std::iter::once((t.uri.as_bytes(), t.uri_enc.as_bytes())))
    {
        for cause in rule_causes(rule) {
            out.push(Finding::new(
                cause,
                Component::Uri,
                percent_encode(t.uri.as_bytes()).to_string(),
                t.uri_enc,
                "their base string URI is encoded this way",
            ));
        }
    }
}
