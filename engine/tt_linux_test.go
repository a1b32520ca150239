package engine

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// TestNewTableMapsItsPages: every page of a new table is in memory when
// NewTable returns (mincore(2)). A page that is not gets mapped at the
// first touch, by a page fault inside a search, and a search on a fresh
// table of 32 MB took thousands of them.
func TestNewTableMapsItsPages(t *testing.T) {
	tt := NewTable(DefaultTableMB)
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&tt.entries[0]))
	end := start + uintptr(len(tt.entries))*unsafe.Sizeof(tt.entries[0])
	start &^= page - 1 // mincore takes a page-aligned address
	vec := make([]byte, (end-start+page-1)/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, start, end-start, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	runtime.KeepAlive(tt)
	absent := 0
	for _, v := range vec {
		if v&1 == 0 {
			absent++
		}
	}
	if absent > 0 {
		t.Errorf("%d of a new table's %d pages are not in memory: each will be mapped by a page fault in a search", absent, len(vec))
	}
}
