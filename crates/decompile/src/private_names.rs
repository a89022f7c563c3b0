//! Private names of a class (`__x`, not `__x__`): the compiler stores them mangled, `_C__x` inside
//! `class C` (its body and every function, lambda and comprehension in it, but not a class nested in
//! it, which mangles with its own name). A class body is decompiled with its names as the source
//! wrote them: printed inside `class C:` they are mangled again to the same names, and 3.13+ record
//! attributes assigned through `self` in `__static_attributes__` as written, not mangled.

use crate::ast::Constant;
use crate::input::{flags, CodeInput, Const};
use framejit_bytecode::{Arg, Instr, Item};

/// `name` as written inside class `class`, where the compiler mangled it there.
pub fn demangle<'a>(class: &str, name: &'a str) -> Option<&'a str> {
    let stripped = class.trim_start_matches('_');
    if stripped.is_empty() {
        return None;
    }
    let rest = name.strip_prefix('_')?.strip_prefix(stripped)?;
    let private = rest.len() > 2 && rest.starts_with("__") && !rest.ends_with("__");
    (private && !rest.contains('.')).then_some(rest)
}

/// The class body `code` with every name table of it and of the functions in it as written in the
/// class's source; None where no name is mangled (nothing to change).
pub fn unmangled(code: &CodeInput) -> Option<CodeInput> {
    if !mentions(code, &code.name) {
        return None;
    }
    let mut out = code.clone();
    let class = code.name.clone();
    let keep = written_mangled(code);
    rewrite(&mut out, &class, &keep);
    Some(out)
}

/// 3.13+: the attributes the class's methods assign through `self` as the source spelled them
/// (`__static_attributes__`): a private one spelled there in its mangled form (`self._C__x = 1`)
/// was written so, and stays so.
fn written_mangled(code: &CodeInput) -> Vec<String> {
    let mut prev: Option<&Instr> = None;
    for item in &code.bytecode.items {
        let Item::Instr(ins) = item else { continue };
        let stores_static = ins.op.name == "STORE_NAME"
            && matches!(ins.arg, Arg::Raw(a) if code.names.get(a as usize).map(String::as_str) == Some("__static_attributes__"));
        if let (true, Some(p)) = (stores_static, prev) {
            if let (Arg::Raw(k), "LOAD_CONST") = (p.arg, p.op.name) {
                if let Some(Const::Value(Constant::Tuple(items))) = code.consts.get(k as usize) {
                    return items
                        .iter()
                        .filter_map(|c| match c {
                            Constant::Str(s) => {
                                Some(s.0.iter().filter_map(|&u| char::from_u32(u)).collect())
                            }
                            _ => None,
                        })
                        .filter(|n: &String| demangle(&code.name, n).is_some())
                        .collect();
                }
            }
        }
        prev = Some(ins);
    }
    Vec::new()
}

/// Whether a function nested in the class is mangled with its name (a nested class body is not).
fn in_scope(c: &CodeInput) -> bool {
    c.flags & flags::OPTIMIZED != 0
}

fn tables(code: &CodeInput) -> impl Iterator<Item = &String> {
    code.names
        .iter()
        .chain(&code.varnames)
        .chain(&code.cellvars)
        .chain(&code.freevars)
}

fn mentions(code: &CodeInput, class: &str) -> bool {
    tables(code).any(|n| demangle(class, n).is_some())
        || code.consts.iter().any(|k| match k {
            Const::Code(c) => in_scope(c) && mentions(c, class),
            _ => false,
        })
}

fn rewrite(code: &mut CodeInput, class: &str, keep: &[String]) {
    for n in code
        .names
        .iter_mut()
        .chain(code.varnames.iter_mut())
        .chain(code.cellvars.iter_mut())
        .chain(code.freevars.iter_mut())
    {
        if let (Some(plain), false) = (demangle(class, n), keep.contains(n)) {
            *n = plain.to_owned();
        }
    }
    code.private = Some(class.to_owned());
    for k in code.consts.iter_mut() {
        if let Const::Code(c) = k {
            if in_scope(c) {
                rewrite(c, class, keep);
            }
        }
    }
}

/// A name a constant gives (a keyword-only default's or an annotation's key), as written in the
/// source of `code`'s class where the compiler mangled it.
pub fn key_as_written(code: &CodeInput, key: String) -> String {
    match code.private.as_deref().and_then(|c| demangle(c, &key)) {
        Some(plain) => plain.to_owned(),
        None => key,
    }
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn only_what_the_compiler_mangles_comes_back() {
        assert_eq!(demangle("C", "_C__x"), Some("__x"));
        assert_eq!(demangle("__C", "_C__x"), Some("__x"));
        assert_eq!(demangle("C", "_C___x"), Some("___x"));
        assert_eq!(demangle("C", "_C__x__"), None);
        assert_eq!(demangle("C", "_C__"), None);
        assert_eq!(demangle("C", "_D__x"), None);
        assert_eq!(demangle("C", "_C_x"), None);
        assert_eq!(demangle("___", "___x"), None);
        assert_eq!(demangle("Cls", "_C__x"), None);
    }
}
