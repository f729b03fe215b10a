package scan

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
)

// deleteCache holds the parsed content of delete files for the length of
// one scan: a delete file usually applies to many data files, and is read
// once however many tasks (and workers) need it.
type deleteCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	done chan struct{}
	val  any
	err  error
}

func newDeleteCache() *deleteCache {
	return &deleteCache{entries: map[string]*cacheEntry{}}
}

// get returns the cached value for key, loading it once. A load that failed
// because its ctx ended is retried by the next caller.
func (c *deleteCache) get(ctx context.Context, key string, load func() (any, error)) (any, error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
		if !ok {
			e = &cacheEntry{done: make(chan struct{})}
			c.entries[key] = e
			c.mu.Unlock()
			e.val, e.err = load()
			if e.err != nil && ctx.Err() != nil {
				c.mu.Lock()
				delete(c.entries, key)
				c.mu.Unlock()
			}
			close(e.done)
			return e.val, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil && ctx.Err() == nil && isContextErr(e.err) {
			continue
		}
		return e.val, e.err
	}
}

// positionSet is a sorted set of deleted row positions of one data file,
// consumed in order as batches go by.
type positionSet struct {
	pos []int64
	i   int
}

func newPositionSet(lists ...[]int64) *positionSet {
	var all []int64
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	return &positionSet{pos: all}
}

func (s *positionSet) empty() bool { return s == nil || len(s.pos) == 0 }

// mark sets del[j] for each deleted position first+j, j < len(del), and
// returns how many it set. Calls must come in increasing first.
func (s *positionSet) mark(first int64, del []bool) int {
	if s.empty() {
		return 0
	}
	end := first + int64(len(del))
	for s.i < len(s.pos) && s.pos[s.i] < first {
		s.i++
	}
	n := 0
	for s.i < len(s.pos) && s.pos[s.i] < end {
		if !del[s.pos[s.i]-first] {
			del[s.pos[s.i]-first] = true
			n++
		}
		s.i++
	}
	return n
}

// loadTaskDeletes loads the deletes of a task: the deleted positions of its
// data file (position-delete files and deletion vectors together) and its
// equality deletes; needEq is called with each equality field id, so that
// the data file reader reads that column.
func (s *scanRun) loadTaskDeletes(ctx context.Context, task *catalog.FileScanTask, needEq func(id int) error) (*positionSet, []*equalityDeletes, error) {
	df := task.File
	var posLists [][]int64
	var eqs []*equalityDeletes
	dataPath := "" // resolved at the first position-delete file
	for _, d := range task.Deletes {
		switch {
		case strings.EqualFold(string(d.Format), string(catalog.FormatPuffin)):
			l, err := s.loadDeletionVector(ctx, d)
			if err != nil {
				return nil, nil, err
			}
			posLists = append(posLists, l)
		case d.Content == catalog.ContentPositionDelete:
			pd, err := s.loadPositionDeletes(ctx, d)
			if err != nil {
				return nil, nil, err
			}
			if dataPath == "" {
				dataPath = s.resolve(df.Path)
			}
			if l := pd[dataPath]; len(l) > 0 {
				posLists = append(posLists, l)
			}
		case d.Content == catalog.ContentEqualityDelete:
			eq, err := s.loadEqualityDeletes(ctx, d)
			if err != nil {
				return nil, nil, err
			}
			if len(eq.keys) == 0 {
				continue
			}
			for _, id := range eq.ids {
				if err := needEq(id); err != nil {
					return nil, nil, err
				}
			}
			eqs = append(eqs, eq)
		default:
			return nil, nil, fmt.Errorf("data file %s: delete file %s has content %d", df.Path, d.Path, d.Content)
		}
	}
	return newPositionSet(posLists...), eqs, nil
}
