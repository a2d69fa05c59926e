//! The allocator of the `push-rummy` binary and the criterion benches (feature `mimalloc`, on by
//! default; ARCHITECTURE.md, "Dependencies"): mimalloc, asked through its plain entry points
//! wherever they already give the alignment a layout wants.
//!
//! The `mimalloc` crate's own `MiMalloc` passes every request to `mi_malloc_aligned`, whose path
//! costs about 40 instructions where `mi_malloc`'s costs about 30: a whole game allocates some
//! 4,300 times, and this is 2% of its instructions (docs/PERFORMANCE.md). A block from `mi_malloc`
//! is aligned to its size's natural alignment up to 16 bytes (`MI_MAX_ALIGN_SIZE` on 64-bit
//! targets, as C's `malloc` must be for any object that fits), so a layout whose alignment is at
//! most 16 and divides its size is served by `mi_malloc`; any other goes to the aligned entry
//! points, exactly as `MiMalloc` would send it. Freeing is `mi_free` either way.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The largest alignment `mi_malloc` gives every block whose size is a multiple of it.
const NATURAL_ALIGN: usize = 16;

/// mimalloc, without the aligned path where it is not needed.
pub struct Mimalloc;

/// Whether `mi_malloc(size)` (or `mi_realloc(_, size)`) already returns memory aligned to `align`.
/// (`align` is a power of two, so it divides `size` when `size` has none of its lower bits.)
#[inline]
fn natural(size: usize, align: usize) -> bool {
    align <= NATURAL_ALIGN && size & (align - 1) == 0
}

// SAFETY: every method hands mimalloc a layout's size (and, where it is not natural, its
// alignment), returns what mimalloc returns (null on failure, as `GlobalAlloc` asks), and frees
// only pointers mimalloc gave out; `natural` holds only where mimalloc's plain blocks are aligned
// as the layout wants.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if natural(layout.size(), layout.align()) {
            // SAFETY: a plain allocation of a non-zero size (`GlobalAlloc`'s contract).
            unsafe { mi::mi_malloc(layout.size()) }
        } else {
            // SAFETY: as above, with the layout's alignment, a power of two.
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) }
        };
        p.cast()
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = if natural(layout.size(), layout.align()) {
            // SAFETY: as in `alloc`.
            unsafe { mi::mi_zalloc(layout.size()) }
        } else {
            // SAFETY: as in `alloc`.
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) }
        };
        p.cast()
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator (`GlobalAlloc`'s contract), so from mimalloc.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = if natural(new_size, layout.align()) {
            // SAFETY: `ptr` came from mimalloc; the new size is non-zero (`GlobalAlloc`'s
            // contract), and mimalloc keeps the block's contents up to the smaller size.
            unsafe { mi::mi_realloc(ptr.cast::<c_void>(), new_size) }
        } else {
            // SAFETY: as above, keeping the layout's alignment.
            unsafe { mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()) }
        };
        p.cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size up to 300 bytes and a few large ones, with every alignment up to 4096: each
    /// block is aligned as asked, holds what was written, keeps it through a reallocation to a
    /// larger and a smaller size, and a zeroed block reads zero.
    #[test]
    fn every_block_is_aligned_and_keeps_its_contents() {
        let a = Mimalloc;
        for align in (0..=12).map(|k| 1usize << k) {
            for size in (1..=300usize).chain([4096, 65_536, (1 << 20) + 8]) {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero size; every pointer is checked, written within its size,
                // and freed once with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    for i in 0..size {
                        p.add(i).write(i as u8);
                    }
                    let grown = size * 3 + 1;
                    let q = a.realloc(p, layout, grown);
                    assert_eq!(q as usize % align, 0, "grown {grown}, align {align}");
                    assert!((0..size).all(|i| q.add(i).read() == i as u8));
                    let big = Layout::from_size_align(grown, align).unwrap();
                    let r = a.realloc(q, big, size.div_ceil(2));
                    assert_eq!(r as usize % align, 0, "shrunk, align {align}");
                    assert!((0..size.div_ceil(2)).all(|i| r.add(i).read() == i as u8));
                    a.dealloc(r, Layout::from_size_align(size.div_ceil(2), align).unwrap());

                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|i| z.add(i).read() == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
