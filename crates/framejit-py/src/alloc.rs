//! The Rust side's global allocator: mimalloc, called through its plain entry points, with a bump
//! arena for the allocations of one decompile call.
//!
//! Decompiling a function makes a few hundred small allocations (AST nodes, names); glibc's
//! allocator served them at about a third of a median call's instructions. The `mimalloc` crate's
//! own wrapper sends every request through mimalloc's aligned entry points, which cost a few dozen
//! instructions more per call than the plain ones; nearly every request here asks for 8-byte
//! alignment or less, which the plain entry points always give.
//!
//! # The arena
//!
//! While a thread is inside [`arena_call`], the allocations it makes are cut from a static chunk
//! of [`ARENA`] (in `.bss`: no memory is touched until used) by moving a cursor, and freeing a
//! block of a chunk only counts it off. Invariants:
//!
//! 1. At most one thread owns the arena at a time (`STATE.owner`, taken by compare-and-swap at the
//!    start of the outermost `arena_call` on that thread and given back at its end, also when it
//!    unwinds). Only the owner moves the cursor, and only while it owns the arena; a call on
//!    another thread while the arena is owned runs on mimalloc alone.
//! 2. `STATE.live` counts, per chunk, the blocks cut from it and not yet freed. A block may outlive
//!    the call that made it (the returned source text, a lazily built static, a PyO3 cache) and
//!    may be freed by any thread: a free recognises an arena block by its address alone (the
//!    arena is one fixed range, its chunks fixed parts of it) and only decrements its chunk's
//!    count.
//! 3. The cursor goes back to a chunk's start only when that chunk's live count is 0, and only by the
//!    thread that is taking ownership (at the start of a call): no block handed out from it
//!    earlier is live then, so nothing is ever handed out twice. A chunk whose blocks are still
//!    live (a static built during a call lives forever) is left alone: the call takes another
//!    chunk with none live, or else goes on from the cursor; a call that finds its chunk full
//!    takes the rest from mimalloc.
//! 4. `realloc` of the block that ends at the cursor grows (or shrinks) it in place within its
//!    chunk; any other arena block that must grow is copied into a new block (from the arena for
//!    the owner, from mimalloc otherwise) and the old one is counted off.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::sync::atomic::{AtomicUsize, Ordering};

use libmimalloc_sys as ffi;

/// What `mi_malloc` guarantees for a block of any size (its smallest size classes are 8 bytes
/// apart, so 16 is guaranteed only for some sizes).
const PLAIN_ALIGN: usize = 8;

/// A chunk's size: a median decompile call uses some kilobytes, the largest stdlib functions
/// a few megabytes (they take the rest from mimalloc once their chunk is full).
const CHUNK_SIZE: usize = 1 << 20;
const CHUNKS: usize = 4;
const ARENA_SIZE: usize = CHUNK_SIZE * CHUNKS;

#[repr(C, align(64))]
struct Arena(UnsafeCell<[u8; ARENA_SIZE]>);

// SAFETY: the bytes are only reached through blocks handed out by `Mimalloc`, each to one
// owner at a time (invariants 1 and 3 in the module documentation).
unsafe impl Sync for Arena {}

static ARENA: Arena = Arena(UnsafeCell::new([0; ARENA_SIZE]));

/// The arena's bookkeeping, in one place (one address to reach from the allocator's paths).
#[repr(C)]
struct State {
    /// The thread that owns the arena (its [`this_thread`] id), or 0. A thread gives ownership
    /// back before it can end (the owner is inside `arena_call`), so an id is not reused while
    /// it owns.
    owner: AtomicUsize,
    /// Address of the first free byte of the current chunk (0 before the first call); moved
    /// only by the owner.
    cursor: AtomicUsize,
    /// Address of the end of the current chunk (0 before the first call); set only by the owner.
    limit: AtomicUsize,
    /// The current chunk's index; set only by the owner.
    chunk: AtomicUsize,
    /// Blocks the owner cut from the current chunk during its ownership; added to the chunk's
    /// `live` count when it gives ownership back (so that cutting a block costs no atomic
    /// read-modify-write).
    cut: AtomicUsize,
    /// Per chunk, the blocks cut from it and not freed yet, in wrapping arithmetic: frees
    /// decrement it at once, cuts are added at the end of the ownership that made them, so
    /// while an owner cuts from a chunk its count may be "below zero"; it is read only by a
    /// thread taking ownership, after the last owner's cuts were added.
    live: [AtomicUsize; CHUNKS],
}

static STATE: State = State {
    owner: AtomicUsize::new(0),
    cursor: AtomicUsize::new(0),
    limit: AtomicUsize::new(0),
    chunk: AtomicUsize::new(0),
    cut: AtomicUsize::new(0),
    live: [const { AtomicUsize::new(0) }; CHUNKS],
};

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
extern "C" {
    /// The calling thread's id, unique among live threads; never 0 (a pointer to the thread's
    /// control block on the platforms we build for).
    fn pthread_self() -> usize;
}

/// The calling thread's id: unique among live threads, never 0. (A thread-local's address
/// would do as well, but reaching one from a shared library costs a call of `__tls_get_addr`.)
#[inline]
fn this_thread() -> usize {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let id: usize;
        // SAFETY: on x86-64 Linux the `fs` segment of every thread starts with the thread's
        // control block, whose first word points to the block itself (the x86-64 TLS ABI);
        // it is what `pthread_self` returns. One load, no call, nothing else touched.
        unsafe {
            core::arch::asm!(
                "mov {}, qword ptr fs:[0]",
                out(reg) id,
                options(nostack, readonly, preserves_flags, pure)
            );
        }
        id
    }
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    // SAFETY: `pthread_self` has no preconditions and always succeeds.
    unsafe {
        pthread_self()
    }
}

#[inline]
fn arena_start() -> usize {
    ARENA.0.get() as usize
}

/// The chunk `ptr` lies in, where it is an arena block.
#[inline]
fn arena_chunk(ptr: *mut u8) -> Option<usize> {
    let off = (ptr as usize).wrapping_sub(arena_start());
    (off < ARENA_SIZE).then_some(off / CHUNK_SIZE)
}

/// Whether this thread owns the arena now. Cheap when nobody does (one load).
#[inline]
fn owned_here() -> bool {
    let owner = STATE.owner.load(Ordering::Relaxed);
    owner != 0 && this_thread() == owner
}

/// Picks the chunk a new owner cuts from: the current one from its start where none of its
/// blocks is live, else the next chunk with none live, else the current one from its cursor.
fn start_chunk() {
    let current = STATE.chunk.load(Ordering::Relaxed);
    let free = (0..CHUNKS)
        .map(|i| (current + i) % CHUNKS)
        .find(|&i| STATE.live[i].load(Ordering::Acquire) == 0);
    if let Some(i) = free {
        let start = arena_start() + i * CHUNK_SIZE;
        STATE.chunk.store(i, Ordering::Relaxed);
        STATE.cursor.store(start, Ordering::Relaxed);
        STATE.limit.store(start + CHUNK_SIZE, Ordering::Relaxed);
    }
    STATE.cut.store(0, Ordering::Relaxed);
}

/// Runs `f` with this thread's allocations cut from the arena where it can (see the module
/// documentation); nested calls share the outermost call's ownership.
pub fn arena_call<R>(f: impl FnOnce() -> R) -> R {
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            let chunk = STATE.chunk.load(Ordering::Relaxed);
            let cut = STATE.cut.load(Ordering::Relaxed);
            STATE.live[chunk].fetch_add(cut, Ordering::Relaxed);
            STATE.owner.store(0, Ordering::Release);
        }
    }
    let me = this_thread();
    // (a nested call on the owner, or a call while another thread owns: nothing to take)
    if me == 0 || STATE.owner.load(Ordering::Relaxed) == me {
        return f();
    }
    if STATE
        .owner
        .compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return f();
    }
    start_chunk();
    let _release = Release;
    f()
}

/// A block of `layout` from the current chunk, or null when it does not fit. Only for the owner.
#[inline]
fn bump(layout: Layout) -> *mut u8 {
    let cur = STATE.cursor.load(Ordering::Relaxed);
    // (an alignment is a power of two; the cursor is far below the top of the address space)
    let start = (cur + layout.align() - 1) & !(layout.align() - 1);
    let end = start.wrapping_add(layout.size());
    if end < start || end > STATE.limit.load(Ordering::Relaxed) {
        return core::ptr::null_mut();
    }
    STATE.cursor.store(end, Ordering::Relaxed);
    STATE
        .cut
        .store(STATE.cut.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    // (the block is `ARENA`'s own memory: the pointer keeps its provenance)
    ARENA
        .0
        .get()
        .cast::<u8>()
        .wrapping_add(start - arena_start())
}

pub struct Mimalloc;

impl Mimalloc {
    #[inline]
    unsafe fn mi_alloc(layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_malloc(layout.size()).cast() }
        } else {
            unsafe { ffi::mi_malloc_aligned(layout.size(), layout.align()).cast() }
        }
    }
}

// SAFETY: outside the chunk each method forwards to the mimalloc call that honours the layout's
// alignment (the callers' contract of `GlobalAlloc` is passed on unchanged); a block is freed by
// `mi_free` whichever entry point allocated it, and `mi_realloc` keeps the block's alignment up
// to 8. Chunk blocks are aligned by `bump`, never overlap while live (invariant 3), and are never
// passed to mimalloc.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if owned_here() {
            let p = bump(layout);
            if !p.is_null() {
                return p;
            }
        }
        unsafe { Self::mi_alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if owned_here() {
            let p = bump(layout);
            if !p.is_null() {
                // SAFETY: `p` starts a fresh block of `layout.size()` bytes; earlier blocks at
                // this place were written before, so it is zeroed here.
                unsafe { core::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
        }
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_zalloc(layout.size()).cast() }
        } else {
            unsafe { ffi::mi_zalloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        if let Some(chunk) = arena_chunk(ptr) {
            STATE.live[chunk].fetch_sub(1, Ordering::Release);
            return;
        }
        unsafe { ffi::mi_free(ptr.cast::<c_void>()) };
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if let Some(chunk) = arena_chunk(ptr) {
            let owner = owned_here();
            // (a block of the chunk before may end where the current chunk starts)
            if owner
                && chunk == STATE.chunk.load(Ordering::Relaxed)
                && ptr as usize + layout.size() == STATE.cursor.load(Ordering::Relaxed)
            {
                let end = (ptr as usize).wrapping_add(new_size);
                if end >= ptr as usize && end <= STATE.limit.load(Ordering::Relaxed) {
                    STATE.cursor.store(end, Ordering::Relaxed);
                    return ptr;
                }
            }
            if new_size <= layout.size() {
                return ptr;
            }
            // SAFETY: the caller's contract gives a valid layout of `new_size` at this alignment.
            let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            let p = if owner {
                bump(new_layout)
            } else {
                core::ptr::null_mut()
            };
            let p = if p.is_null() {
                unsafe { Self::mi_alloc(new_layout) }
            } else {
                p
            };
            if !p.is_null() {
                // SAFETY: both blocks are live and distinct; the old one holds `layout.size()`
                // bytes, fewer than the new one's.
                unsafe { core::ptr::copy_nonoverlapping(ptr, p, layout.size()) };
                STATE.live[chunk].fetch_sub(1, Ordering::Release);
            }
            return p;
        }
        if layout.align() <= PLAIN_ALIGN {
            unsafe { ffi::mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
        } else {
            unsafe {
                ffi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests read the arena's global counts: one at a time.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// Runs `f` inside an `arena_call` that owns the arena (other test threads may hold it for a
    /// moment: try again until this thread gets it).
    fn owning<R>(mut f: impl FnMut() -> R) -> R {
        for _ in 0..10_000 {
            if let Some(r) = arena_call(|| owned_here().then(&mut f)) {
                return r;
            }
            std::thread::yield_now();
        }
        panic!("the arena stayed owned by another thread");
    }

    fn chunk_of(p: *const u8) -> usize {
        arena_chunk(p.cast_mut()).expect("an arena block")
    }

    /// Blocks kept past their call are never handed out again while live, even when every chunk
    /// holds one; once all are freed, the counts are 0 and a call starts a chunk from its start.
    #[test]
    fn live_blocks_are_never_reused() {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut kept: Vec<Box<[u8; 64]>> = Vec::with_capacity(CHUNKS * 2 + 1);
        for i in 0..CHUNKS * 2 + 1 {
            let b = owning(|| {
                let tmp = vec![0xAAu8; 1000];
                let b = Box::new([i as u8; 64]);
                drop(tmp);
                b
            });
            kept.push(b);
        }
        // every chunk holds a live block: chunks were never reset under them
        let mut chunks: Vec<usize> = kept.iter().map(|b| chunk_of(b.as_ptr())).collect();
        chunks.sort_unstable();
        chunks.dedup();
        assert_eq!(chunks.len(), CHUNKS);
        let mut ranges: Vec<usize> = kept.iter().map(|b| b.as_ptr() as usize).collect();
        ranges.sort_unstable();
        assert!(
            ranges.windows(2).all(|w| w[1] - w[0] >= 64),
            "blocks overlap"
        );
        for (i, b) in kept.iter().enumerate() {
            assert!(b.iter().all(|&x| x == i as u8), "block {i} was overwritten");
        }
        drop(kept);
        assert!(STATE.live.iter().all(|l| l.load(Ordering::Acquire) == 0));
        let start = owning(|| {
            let b = Box::new(7u64);
            (core::ptr::from_ref(&*b) as usize - arena_start()) % CHUNK_SIZE
        });
        assert_eq!(start, 0);
    }

    /// A vector growing at the cursor stays in place; one that is not last moves and counts off.
    #[test]
    fn realloc_at_the_cursor_grows_in_place() {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        owning(|| {
            let mut v: Vec<u8> = Vec::with_capacity(16);
            let p = v.as_ptr();
            v.extend_from_slice(&[1; 100]);
            assert_eq!(v.as_ptr(), p);
            let _w: Vec<u8> = Vec::with_capacity(8);
            v.extend_from_slice(&[2; 200]);
            assert_ne!(v.as_ptr(), p);
            assert!(v[..100].iter().all(|&x| x == 1) && v[100..].iter().all(|&x| x == 2));
        });
    }
}
