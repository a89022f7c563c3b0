//! `framejit._native`: a thin PyO3 module over framejit's Rust crates.

mod alloc;
mod bytecode;
mod decompile;
mod errors;
mod pyc;

use pyo3::prelude::*;

#[global_allocator]
static GLOBAL: alloc::Mimalloc = alloc::Mimalloc;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BytecodeError", m.py().get_type::<errors::BytecodeError>())?;
    m.add("PycError", m.py().get_type::<errors::PycError>())?;
    m.add(
        "DecompileError",
        m.py().get_type::<errors::DecompileError>(),
    )?;
    m.add_function(wrap_pyfunction!(decompile::decompile_code, m)?)?;
    m.add_class::<bytecode::NativeBytecode>()?;
    m.add_class::<pyc::CodeModel>()?;
    m.add_function(wrap_pyfunction!(pyc::load_pyc, m)?)?;
    m.add_function(wrap_pyfunction!(pyc::dump_pyc, m)?)?;
    m.add_function(wrap_pyfunction!(bytecode::opcode_table, m)?)?;
    m.add_function(wrap_pyfunction!(bytecode::stack_effect, m)?)?;
    m.add_function(wrap_pyfunction!(bytecode::listing, m)?)?;
    m.add_function(wrap_pyfunction!(bytecode::exception_entries, m)?)?;
    Ok(())
}
