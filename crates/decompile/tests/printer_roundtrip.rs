//! Printer round trip: trees that CPython's `ast.parse` built (dumped as JSON by
//! `tools/dump_ast.py`) are printed and handed back to the same interpreter, which must parse the
//! text to the same tree.
//!
//! - `fixture_roundtrip` (always runs): the checked-in dump under `fixtures/ast/`. It prints every
//!   tree (no panics); if an interpreter of the recorded version is found (`pyenv
//!   root`/versions/3.X.*, `python3.X` on `PATH`, /opt/python3.X/bin) it also checks the round
//!   trip, per version directory.
//! - `stdlib_roundtrip` (ignored): `FRAMEJIT_AST_DUMP=DIR` (from `dump_ast.py dump DIR`) and
//!   `FRAMEJIT_AST_PYTHON=python` (the interpreter that wrote it); printed sources go to
//!   `DIR.printed/`. `FRAMEJIT_AST_TARGET=3.X` prints for another target version.

use framejit_bytecode::PyVersion;
use framejit_decompile::ast::*;
use framejit_decompile::printer::print_module;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

type R<T> = Result<T, String>;

fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    v.get(name).unwrap_or(&Value::Null)
}

fn ty(v: &Value) -> &str {
    field(v, "_t").as_str().unwrap_or("")
}

fn s(v: &Value, name: &str) -> R<String> {
    field(v, name)
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{name}: not a string in {}", ty(v)))
}

fn opt_s(v: &Value, name: &str) -> Option<String> {
    field(v, name).as_str().map(str::to_string)
}

fn list<'a>(v: &'a Value, name: &str) -> &'a [Value] {
    field(v, name).as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn exprs(v: &Value, name: &str) -> R<Vec<Expr>> {
    list(v, name).iter().map(expr).collect()
}

fn bx(v: &Value, name: &str) -> R<Box<Expr>> {
    Ok(Box::new(expr(field(v, name))?))
}

fn opt_expr(v: &Value, name: &str) -> R<Option<Expr>> {
    match field(v, name) {
        Value::Null => Ok(None),
        e => expr(e).map(Some),
    }
}

fn opt_bx(v: &Value, name: &str) -> R<Option<Box<Expr>>> {
    Ok(opt_expr(v, name)?.map(Box::new))
}

fn body(v: &Value, name: &str) -> R<Body> {
    list(v, name).iter().map(stmt).collect()
}

fn names(v: &Value, name: &str) -> R<Vec<String>> {
    list(v, name)
        .iter()
        .map(|n| {
            n.as_str()
                .map(str::to_string)
                .ok_or_else(|| "name".to_string())
        })
        .collect()
}

fn ctx(v: &Value) -> ExprContext {
    match ty(field(v, "ctx")) {
        "Store" => ExprContext::Store,
        "Del" => ExprContext::Del,
        _ => ExprContext::Load,
    }
}

fn float(v: &Value, name: &str) -> R<f64> {
    s(v, name)?.parse::<f64>().map_err(|e| e.to_string())
}

fn constant(v: &Value) -> R<Constant> {
    let kind = field(v, "_c").as_str().unwrap_or("");
    Ok(match kind {
        "none" => Constant::None,
        "ellipsis" => Constant::Ellipsis,
        "bool" => Constant::Bool(field(v, "v").as_bool().unwrap_or(false)),
        "int" => Constant::Int(s(v, "v")?),
        "float" => Constant::Float(float(v, "v")?),
        "complex" => Constant::Complex {
            real: float(v, "real")?,
            imag: float(v, "imag")?,
        },
        "str" => match field(v, "v").as_str() {
            Some(t) => Constant::str(t),
            None => Constant::Str(StrValue(
                list(v, "cp")
                    .iter()
                    .map(|c| c.as_u64().unwrap_or(0) as u32)
                    .collect(),
            )),
        },
        "bytes" => {
            let h = s(v, "hex")?;
            let mut out = Vec::new();
            for i in (0..h.len()).step_by(2) {
                out.push(u8::from_str_radix(&h[i..i + 2], 16).map_err(|e| e.to_string())?);
            }
            Constant::Bytes(out)
        }
        "tuple" => Constant::Tuple(list(v, "v").iter().map(constant).collect::<R<_>>()?),
        "frozenset" => Constant::FrozenSet(list(v, "v").iter().map(constant).collect::<R<_>>()?),
        other => return Err(format!("constant kind {other:?}")),
    })
}

fn operator(v: &Value) -> R<Operator> {
    Ok(match ty(v) {
        "Add" => Operator::Add,
        "Sub" => Operator::Sub,
        "Mult" => Operator::Mult,
        "MatMult" => Operator::MatMult,
        "Div" => Operator::Div,
        "Mod" => Operator::Mod,
        "Pow" => Operator::Pow,
        "LShift" => Operator::LShift,
        "RShift" => Operator::RShift,
        "BitOr" => Operator::BitOr,
        "BitXor" => Operator::BitXor,
        "BitAnd" => Operator::BitAnd,
        "FloorDiv" => Operator::FloorDiv,
        o => return Err(format!("operator {o}")),
    })
}

fn cmpop(v: &Value) -> R<CmpOp> {
    Ok(match ty(v) {
        "Eq" => CmpOp::Eq,
        "NotEq" => CmpOp::NotEq,
        "Lt" => CmpOp::Lt,
        "LtE" => CmpOp::LtE,
        "Gt" => CmpOp::Gt,
        "GtE" => CmpOp::GtE,
        "Is" => CmpOp::Is,
        "IsNot" => CmpOp::IsNot,
        "In" => CmpOp::In,
        "NotIn" => CmpOp::NotIn,
        o => return Err(format!("cmpop {o}")),
    })
}

fn arg(v: &Value) -> R<Arg> {
    Ok(Arg {
        arg: s(v, "arg")?,
        annotation: opt_expr(v, "annotation")?,
    })
}

fn opt_arg(v: &Value, name: &str) -> R<Option<Arg>> {
    match field(v, name) {
        Value::Null => Ok(None),
        a => arg(a).map(Some),
    }
}

fn arguments(v: &Value) -> R<Arguments> {
    Ok(Arguments {
        posonlyargs: list(v, "posonlyargs").iter().map(arg).collect::<R<_>>()?,
        args: list(v, "args").iter().map(arg).collect::<R<_>>()?,
        vararg: opt_arg(v, "vararg")?,
        kwonlyargs: list(v, "kwonlyargs").iter().map(arg).collect::<R<_>>()?,
        kw_defaults: list(v, "kw_defaults")
            .iter()
            .map(|d| {
                if d.is_null() {
                    Ok(None)
                } else {
                    expr(d).map(Some)
                }
            })
            .collect::<R<_>>()?,
        kwarg: opt_arg(v, "kwarg")?,
        defaults: exprs(v, "defaults")?,
    })
}

fn keywords(v: &Value, name: &str) -> R<Vec<Keyword>> {
    list(v, name)
        .iter()
        .map(|k| {
            Ok(Keyword {
                arg: opt_s(k, "arg"),
                value: expr(field(k, "value"))?,
            })
        })
        .collect()
}

fn comprehensions(v: &Value) -> R<Vec<Comprehension>> {
    list(v, "generators")
        .iter()
        .map(|g| {
            Ok(Comprehension {
                target: expr(field(g, "target"))?,
                iter: expr(field(g, "iter"))?,
                ifs: exprs(g, "ifs")?,
                is_async: field(g, "is_async").as_i64().unwrap_or(0) != 0,
                ifs_apart: Vec::new(),
                line: None,
            })
        })
        .collect()
}

fn conversion(v: &Value) -> R<Conversion> {
    let c = field(v, "conversion").as_i64().unwrap_or(-1);
    Conversion::from_code(c).ok_or_else(|| format!("conversion {c}"))
}

fn expr(v: &Value) -> R<Expr> {
    Ok(match ty(v) {
        "BoolOp" => Expr::BoolOp {
            op: if ty(field(v, "op")) == "And" {
                BoolOp::And
            } else {
                BoolOp::Or
            },
            values: exprs(v, "values")?,
        },
        "NamedExpr" => Expr::NamedExpr {
            target: bx(v, "target")?,
            value: bx(v, "value")?,
        },
        "BinOp" => Expr::BinOp {
            left: bx(v, "left")?,
            op: operator(field(v, "op"))?,
            right: bx(v, "right")?,
        },
        "UnaryOp" => Expr::UnaryOp {
            op: match ty(field(v, "op")) {
                "Invert" => UnaryOp::Invert,
                "Not" => UnaryOp::Not,
                "UAdd" => UnaryOp::UAdd,
                _ => UnaryOp::USub,
            },
            operand: bx(v, "operand")?,
        },
        "Lambda" => Expr::Lambda {
            args: Box::new(arguments(field(v, "args"))?),
            body: bx(v, "body")?,
            line: None,
        },
        "IfExp" => Expr::IfExp {
            test: bx(v, "test")?,
            body: bx(v, "body")?,
            orelse: bx(v, "orelse")?,
        },
        "Dict" => Expr::Dict {
            keys: list(v, "keys")
                .iter()
                .map(|k| {
                    if k.is_null() {
                        Ok(None)
                    } else {
                        expr(k).map(Some)
                    }
                })
                .collect::<R<_>>()?,
            values: exprs(v, "values")?,
        },
        "Set" => Expr::Set {
            elts: exprs(v, "elts")?,
        },
        "ListComp" => Expr::ListComp {
            elt: bx(v, "elt")?,
            generators: comprehensions(v)?,
        },
        "SetComp" => Expr::SetComp {
            elt: bx(v, "elt")?,
            generators: comprehensions(v)?,
        },
        "GeneratorExp" => Expr::GeneratorExp {
            elt: bx(v, "elt")?,
            generators: comprehensions(v)?,
        },
        "DictComp" => Expr::DictComp {
            key: bx(v, "key")?,
            value: bx(v, "value")?,
            generators: comprehensions(v)?,
        },
        "Await" => Expr::Await {
            value: bx(v, "value")?,
        },
        "Yield" => Expr::Yield {
            value: opt_bx(v, "value")?,
        },
        "YieldFrom" => Expr::YieldFrom {
            value: bx(v, "value")?,
        },
        "Compare" => Expr::Compare {
            left: bx(v, "left")?,
            ops: list(v, "ops").iter().map(cmpop).collect::<R<_>>()?,
            comparators: exprs(v, "comparators")?,
        },
        "Call" => Expr::Call {
            func: bx(v, "func")?,
            args: exprs(v, "args")?,
            keywords: keywords(v, "keywords")?,
        },
        "FormattedValue" => Expr::FormattedValue {
            value: bx(v, "value")?,
            conversion: conversion(v)?,
            format_spec: opt_bx(v, "format_spec")?,
        },
        "Interpolation" => Expr::Interpolation {
            value: bx(v, "value")?,
            str: opt_s(v, "str").unwrap_or_default(),
            conversion: conversion(v)?,
            format_spec: opt_bx(v, "format_spec")?,
        },
        "JoinedStr" => Expr::JoinedStr {
            values: exprs(v, "values")?,
        },
        "TemplateStr" => Expr::TemplateStr {
            values: exprs(v, "values")?,
        },
        "Constant" => Expr::Constant {
            value: constant(field(v, "value"))?,
            kind: opt_s(v, "kind"),
        },
        "Attribute" => Expr::Attribute {
            value: bx(v, "value")?,
            attr: s(v, "attr")?,
            ctx: ctx(v),
        },
        "Subscript" => Expr::Subscript {
            value: bx(v, "value")?,
            slice: bx(v, "slice")?,
            ctx: ctx(v),
        },
        "Starred" => Expr::Starred {
            value: bx(v, "value")?,
            ctx: ctx(v),
        },
        "Name" => Expr::Name {
            id: s(v, "id")?,
            ctx: ctx(v),
        },
        "List" => Expr::List {
            elts: exprs(v, "elts")?,
            ctx: ctx(v),
        },
        "Tuple" => Expr::Tuple {
            elts: exprs(v, "elts")?,
            ctx: ctx(v),
        },
        "Slice" => Expr::Slice {
            lower: opt_bx(v, "lower")?,
            upper: opt_bx(v, "upper")?,
            step: opt_bx(v, "step")?,
        },
        other => return Err(format!("expr {other:?}")),
    })
}

fn pattern(v: &Value) -> R<Pattern> {
    let patterns = |name: &str| -> R<Vec<Pattern>> { list(v, name).iter().map(pattern).collect() };
    Ok(match ty(v) {
        "MatchValue" => Pattern::MatchValue {
            value: expr(field(v, "value"))?,
        },
        "MatchSingleton" => Pattern::MatchSingleton {
            value: constant(field(v, "value"))?,
        },
        "MatchSequence" => Pattern::MatchSequence {
            patterns: patterns("patterns")?,
        },
        "MatchMapping" => Pattern::MatchMapping {
            keys: exprs(v, "keys")?,
            patterns: patterns("patterns")?,
            rest: opt_s(v, "rest"),
        },
        "MatchClass" => Pattern::MatchClass {
            cls: expr(field(v, "cls"))?,
            patterns: patterns("patterns")?,
            kwd_attrs: names(v, "kwd_attrs")?,
            kwd_patterns: patterns("kwd_patterns")?,
        },
        "MatchStar" => Pattern::MatchStar {
            name: opt_s(v, "name"),
        },
        "MatchAs" => Pattern::MatchAs {
            pattern: match field(v, "pattern") {
                Value::Null => None,
                p => Some(Box::new(pattern(p)?)),
            },
            name: opt_s(v, "name"),
        },
        "MatchOr" => Pattern::MatchOr {
            patterns: patterns("patterns")?,
        },
        other => return Err(format!("pattern {other:?}")),
    })
}

fn type_params(v: &Value) -> R<Vec<TypeParam>> {
    list(v, "type_params")
        .iter()
        .map(|t| {
            let name = s(t, "name")?;
            let default_value = opt_expr(t, "default_value")?;
            Ok(match ty(t) {
                "TypeVar" => TypeParam::TypeVar {
                    name,
                    bound: opt_expr(t, "bound")?,
                    default_value,
                },
                "ParamSpec" => TypeParam::ParamSpec {
                    name,
                    default_value,
                },
                _ => TypeParam::TypeVarTuple {
                    name,
                    default_value,
                },
            })
        })
        .collect()
}

fn handlers(v: &Value) -> R<Vec<ExceptHandler>> {
    list(v, "handlers")
        .iter()
        .map(|h| {
            Ok(ExceptHandler {
                type_: opt_expr(h, "type")?,
                name: opt_s(h, "name"),
                body: body(h, "body")?,
            })
        })
        .collect()
}

fn with_items(v: &Value) -> R<Vec<WithItem>> {
    list(v, "items")
        .iter()
        .map(|i| {
            Ok(WithItem {
                context_expr: expr(field(i, "context_expr"))?,
                optional_vars: opt_expr(i, "optional_vars")?,
            })
        })
        .collect()
}

fn aliases(v: &Value) -> R<Vec<Alias>> {
    list(v, "names")
        .iter()
        .map(|a| {
            Ok(Alias {
                name: s(a, "name")?,
                asname: opt_s(a, "asname"),
            })
        })
        .collect()
}

fn funcdef(v: &Value) -> R<Box<FunctionDef>> {
    Ok(Box::new(FunctionDef {
        name: s(v, "name")?,
        args: arguments(field(v, "args"))?,
        body: body(v, "body")?,
        decorator_list: exprs(v, "decorator_list")?,
        returns: opt_expr(v, "returns")?,
        type_params: type_params(v)?,
    }))
}

fn stmt(v: &Value) -> R<Stmt> {
    Ok(match ty(v) {
        "FunctionDef" => Stmt::FunctionDef(funcdef(v)?),
        "AsyncFunctionDef" => Stmt::AsyncFunctionDef(funcdef(v)?),
        "ClassDef" => Stmt::ClassDef(Box::new(ClassDef {
            name: s(v, "name")?,
            bases: exprs(v, "bases")?,
            keywords: keywords(v, "keywords")?,
            body: body(v, "body")?,
            decorator_list: exprs(v, "decorator_list")?,
            type_params: type_params(v)?,
        })),
        "Return" => Stmt::Return {
            value: opt_expr(v, "value")?,
        },
        "Delete" => Stmt::Delete {
            targets: exprs(v, "targets")?,
        },
        "Assign" => Stmt::Assign {
            targets: exprs(v, "targets")?,
            value: expr(field(v, "value"))?,
        },
        "TypeAlias" => Stmt::TypeAlias {
            name: expr(field(v, "name"))?,
            type_params: type_params(v)?,
            value: expr(field(v, "value"))?,
        },
        "AugAssign" => Stmt::AugAssign {
            target: expr(field(v, "target"))?,
            op: operator(field(v, "op"))?,
            value: expr(field(v, "value"))?,
        },
        "AnnAssign" => Stmt::AnnAssign {
            target: expr(field(v, "target"))?,
            annotation: expr(field(v, "annotation"))?,
            value: opt_expr(v, "value")?,
            simple: field(v, "simple").as_i64().unwrap_or(0) != 0,
        },
        "For" => Stmt::For {
            target: expr(field(v, "target"))?,
            iter: expr(field(v, "iter"))?,
            body: body(v, "body")?,
            orelse: body(v, "orelse")?,
        },
        "AsyncFor" => Stmt::AsyncFor {
            target: expr(field(v, "target"))?,
            iter: expr(field(v, "iter"))?,
            body: body(v, "body")?,
            orelse: body(v, "orelse")?,
        },
        "While" => Stmt::While {
            test: expr(field(v, "test"))?,
            body: body(v, "body")?,
            orelse: body(v, "orelse")?,
        },
        "If" => Stmt::If {
            test: expr(field(v, "test"))?,
            body: body(v, "body")?,
            orelse: body(v, "orelse")?,
        },
        "With" => Stmt::With {
            items: with_items(v)?,
            body: body(v, "body")?,
        },
        "AsyncWith" => Stmt::AsyncWith {
            items: with_items(v)?,
            body: body(v, "body")?,
        },
        "Match" => Stmt::Match {
            subject: expr(field(v, "subject"))?,
            cases: list(v, "cases")
                .iter()
                .map(|c| {
                    Ok(MatchCase {
                        pattern: pattern(field(c, "pattern"))?,
                        guard: opt_expr(c, "guard")?,
                        body: body(c, "body")?,
                    })
                })
                .collect::<R<_>>()?,
        },
        "Raise" => Stmt::Raise {
            exc: opt_expr(v, "exc")?,
            cause: opt_expr(v, "cause")?,
        },
        "Try" => Stmt::Try {
            body: body(v, "body")?,
            handlers: handlers(v)?,
            orelse: body(v, "orelse")?,
            finalbody: body(v, "finalbody")?,
        },
        "TryStar" => Stmt::TryStar {
            body: body(v, "body")?,
            handlers: handlers(v)?,
            orelse: body(v, "orelse")?,
            finalbody: body(v, "finalbody")?,
        },
        "Assert" => Stmt::Assert {
            test: expr(field(v, "test"))?,
            msg: opt_expr(v, "msg")?,
        },
        "Import" => Stmt::Import { names: aliases(v)? },
        "ImportFrom" => Stmt::ImportFrom {
            module: opt_s(v, "module"),
            names: aliases(v)?,
            level: field(v, "level").as_u64().unwrap_or(0) as u32,
        },
        "Global" => Stmt::Global {
            names: names(v, "names")?,
        },
        "Nonlocal" => Stmt::Nonlocal {
            names: names(v, "names")?,
        },
        "Expr" => Stmt::Expr {
            value: expr(field(v, "value"))?,
        },
        "Pass" => Stmt::Pass,
        "Break" => Stmt::Break,
        "Continue" => Stmt::Continue,
        other => return Err(format!("stmt {other:?}")),
    })
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `3.X` from a `sys.version` string.
fn version_of(sys_version: &str) -> (PyVersion, String) {
    let mut parts = sys_version.split(['.', ' ']);
    let major = parts.next().unwrap_or("3");
    let minor: u8 = parts
        .next()
        .and_then(|m| m.parse().ok())
        .expect("sys.version");
    (
        PyVersion::from_minor(minor).expect("supported version"),
        format!("{major}.{minor}"),
    )
}

/// Prints every dumped module into `printed`; returns how many were printed.
fn print_all(dump: &Path, printed: &Path, version: PyVersion) -> usize {
    let _ = std::fs::remove_dir_all(printed);
    std::fs::create_dir_all(printed).expect("create printed dir");
    let index = read_json(&dump.join("index.json"));
    let files = index["files"].as_object().expect("index files");
    let mut n = 0;
    for key in files.keys() {
        let tree = read_json(&dump.join(format!("{key}.json")));
        let module = body(&tree, "body").unwrap_or_else(|e| panic!("{key}: {e}"));
        let src = print_module(&module, version);
        std::fs::write(printed.join(format!("{key}.py")), src).expect("write printed");
        n += 1;
    }
    n
}

fn check(python: &str, dump: &Path, printed: &Path) {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/dump_ast.py");
    let out = Command::new(python)
        .arg(&tool)
        .arg("check")
        .arg(dump)
        .arg(printed)
        .output()
        .unwrap_or_else(|e| panic!("running {python}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let shown = lines.len().min(60);
    println!("{}", lines[lines.len() - shown..].join("\n"));
    assert!(
        out.status.success(),
        "round trip failed: {}\n{}",
        lines.last().unwrap_or(&""),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Big ASTs recurse deeply; run on a thread with room.
fn with_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("test thread");
}

/// An interpreter of version `dotted` (`3.X`): `pyenv root`/versions/3.X.*, `python3.X` on
/// `PATH`, or /opt/python3.X/bin/python3.X.
fn find_python(dotted: &str) -> Option<String> {
    let ok = |cmd: &str| {
        Command::new(cmd)
            .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
            .output()
            .ok()
            .filter(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == dotted)
            .is_some()
    };
    if let Ok(out) = Command::new("pyenv").arg("root").output() {
        let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("versions");
        if let Ok(entries) = std::fs::read_dir(&root) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if name.starts_with(&format!("{dotted}.")) {
                    let p = e.path().join("bin/python");
                    let p = p.to_string_lossy().to_string();
                    if ok(&p) {
                        return Some(p);
                    }
                }
            }
        }
    }
    [
        format!("python{dotted}"),
        format!("/opt/python{dotted}/bin/python{dotted}"),
    ]
    .into_iter()
    .find(|c| ok(c))
}

#[test]
fn fixture_roundtrip() {
    with_stack(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ast");
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
            .expect("fixtures/ast")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("index.json").is_file())
            .collect();
        dirs.sort();
        assert!(!dirs.is_empty(), "no fixtures under {}", root.display());
        for dir in dirs {
            let index = read_json(&dir.join("index.json"));
            let (version, dotted) = version_of(index["version"].as_str().expect("version"));
            let printed = std::env::temp_dir().join(format!(
                "framejit-printer-fixture-{dotted}-{}",
                std::process::id()
            ));
            let n = print_all(&dir, &printed, version);
            assert!(n > 0);
            match find_python(&dotted) {
                Some(py) => check(&py, &dir, &printed),
                None => eprintln!(
                    "no python{dotted} found: printed {n} modules, round trip not checked"
                ),
            }
            let _ = std::fs::remove_dir_all(&printed);
        }
    });
}

#[test]
#[ignore = "needs FRAMEJIT_AST_DUMP (tools/dump_ast.py dump DIR) and FRAMEJIT_AST_PYTHON"]
fn stdlib_roundtrip() {
    with_stack(|| {
        let dump = PathBuf::from(std::env::var("FRAMEJIT_AST_DUMP").expect("FRAMEJIT_AST_DUMP"));
        let index = read_json(&dump.join("index.json"));
        let (version, dotted) = version_of(index["version"].as_str().expect("version"));
        let python = std::env::var("FRAMEJIT_AST_PYTHON")
            .ok()
            .or_else(|| find_python(&dotted))
            .expect("FRAMEJIT_AST_PYTHON");
        // FRAMEJIT_AST_TARGET=3.X prints for another version (then FRAMEJIT_AST_PYTHON should be
        // that version's interpreter): a check that the older-grammar spellings parse.
        let version = match std::env::var("FRAMEJIT_AST_TARGET") {
            Ok(t) => PyVersion::parse(&t).expect("FRAMEJIT_AST_TARGET"),
            Err(_) => version,
        };
        let printed = PathBuf::from(format!("{}.printed", dump.display()));
        print_all(&dump, &printed, version);
        check(&python, &dump, &printed);
    });
}
