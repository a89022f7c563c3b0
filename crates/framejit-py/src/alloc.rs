//! The Rust side's global allocator: mimalloc, called through its plain entry points.
//!
//! Decompiling a function makes a few hundred small allocations (AST nodes, names); glibc's
//! allocator served them at about a third of a median call's instructions. The `mimalloc` crate's
//! own wrapper sends every request through mimalloc's aligned entry points, which cost a few dozen
//! instructions more per call than the plain ones; nearly every request here asks for 8-byte
//! alignment or less, which the plain entry points always give.

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

use libmimalloc_sys as ffi;

/// What `mi_malloc` guarantees for a block of any size (its smallest size classes are 8 bytes
/// apart, so 16 is guaranteed only for some sizes).
const PLAIN_ALIGN: usize = 8;

pub struct Mimalloc;

// SAFETY: each method forwards to the mimalloc call that honours the layout's alignment (the
// callers' contract of `GlobalAlloc` is passed on unchanged); a block is freed by `mi_free`
// whichever entry point allocated it, and `mi_realloc` keeps the block's alignment up to 8.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_malloc(layout.size()).cast() }
        } else {
            unsafe { ffi::mi_malloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { ffi::mi_zalloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { ffi::mi_free(ptr.cast::<c_void>()) };
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
        } else {
            unsafe {
                ffi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}
