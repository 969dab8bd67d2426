/**
 * A small Go module made on the spot, not shaped for bugbench: `tracekit`
 * with two packages (span, sampler), fifteen tests (one with subtests), a
 * `_test.go` helper file, and a history of five commits of which two are
 * fixes that came with a test each.
 */
import { makeGitRepo } from './git-repo.js';

const GO_MOD = 'module example.com/tracekit\n\ngo 1.19\n';

const SPAN_V1 = `// Package span holds timed pieces of work and what can be asked of them.
package span

import "errors"

// Span is a named piece of work over [Start, End), in microseconds.
type Span struct {
	Name  string
	Start int64
	End   int64
}

// ErrReversed is returned for a span that ends before it starts.
var ErrReversed = errors.New("span ends before it starts")

// New makes a span, refusing one that ends before it starts.
func New(name string, start, end int64) (Span, error) {
	if end < start {
		return Span{}, ErrReversed
	}
	return Span{Name: name, Start: start, End: end}, nil
}

// Duration is how long the span lasted.
func (s Span) Duration() int64 { return s.End - s.Start }

// Overlaps reports whether two spans share an instant.
func (s Span) Overlaps(o Span) bool { return s.Start < o.End && o.Start < s.End }

// Total sums the durations of spans.
func Total(spans []Span) int64 {
	var sum int64
	for _, s := range spans {
		sum += s.Duration()
	}
	return sum
}
`;

const SPAN_MORE = `
// Longest returns the longest span, the earliest of equals; ok is false for none.
func Longest(spans []Span) (longest Span, ok bool) {
	for _, s := range spans {
		if !ok || s.Duration() > longest.Duration() {
			longest, ok = s, true
		}
	}
	return longest, ok
}

// SortByStart orders spans by start, then by name.
func SortByStart(spans []Span) {
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].Start != spans[j].Start {
			return spans[i].Start < spans[j].Start
		}
		return spans[i].Name < spans[j].Name
	})
}

// Busy is the time covered by at least one span, overlaps counted once.
func Busy(spans []Span) int64 {
	sorted := append([]Span(nil), spans...)
	SortByStart(sorted)
	var busy, end int64
	for i, s := range sorted {
		switch {
		case i == 0 || s.Start >= end:
			busy += s.Duration()
			end = s.End
		default:
			busy += s.End - end
			end = s.End
		}
	}
	return busy
}
`;

const SPAN_V2 = SPAN_V1.replace('import "errors"', 'import (\n\t"errors"\n\t"sort"\n)') + SPAN_MORE;

const SPAN_V3 = SPAN_V2.replace(
  `		default:
			busy += s.End - end
			end = s.End
		}`,
  `		case s.End > end:
			busy += s.End - end
			end = s.End
		}`,
);

const HELPERS_TEST = `package span

import "testing"

// mustNew makes a span or stops the test.
func mustNew(t *testing.T, name string, start, end int64) Span {
	t.Helper()
	s, err := New(name, start, end)
	if err != nil {
		t.Fatalf("New(%q, %d, %d): %v", name, start, end, err)
	}
	return s
}

// spans makes one span per pair of instants, named a, b, c, ...
func spans(t *testing.T, bounds ...int64) []Span {
	t.Helper()
	var out []Span
	for i := 0; i+1 < len(bounds); i += 2 {
		out = append(out, mustNew(t, string(rune('a'+i/2)), bounds[i], bounds[i+1]))
	}
	return out
}
`;

const SPAN_TEST_V1 = `package span

import (
	"errors"
	"testing"
)

func TestNew(t *testing.T) {
	cases := []struct {
		name       string
		start, end int64
		err        error
	}{
		{"valid", 1, 5, nil},
		{"empty", 3, 3, nil},
		{"reversed", 5, 1, ErrReversed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.name, c.start, c.end)
			if !errors.Is(err, c.err) {
				t.Fatalf("got %v, want %v", err, c.err)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	if d := mustNew(t, "x", 10, 25).Duration(); d != 15 {
		t.Fatalf("got %d", d)
	}
}

func TestOverlaps(t *testing.T) {
	a, b, c := mustNew(t, "a", 0, 10), mustNew(t, "b", 5, 15), mustNew(t, "c", 10, 20)
	if !a.Overlaps(b) || !b.Overlaps(a) {
		t.Fatal("a and b share [5, 10)")
	}
	if a.Overlaps(c) {
		t.Fatal("a ends where c starts: no shared instant")
	}
}

func TestTotal(t *testing.T) {
	if got := Total(spans(t, 0, 10, 5, 8)); got != 13 {
		t.Fatalf("got %d", got)
	}
}
`;

const SPAN_TEST_V2 = `${SPAN_TEST_V1}
func TestLongest(t *testing.T) {
	got, ok := Longest(spans(t, 0, 4, 10, 19, 20, 29))
	if !ok || got.Name != "b" {
		t.Fatalf("got %v %v, want b", got, ok)
	}
}

func TestLongestEmpty(t *testing.T) {
	if _, ok := Longest(nil); ok {
		t.Fatal("no spans, no longest")
	}
}

func TestSortByStart(t *testing.T) {
	s := []Span{mustNew(t, "z", 5, 6), mustNew(t, "y", 1, 2), mustNew(t, "x", 5, 9)}
	SortByStart(s)
	if s[0].Name != "y" || s[1].Name != "x" || s[2].Name != "z" {
		t.Fatalf("got %v", s)
	}
}

func TestBusy(t *testing.T) {
	if got := Busy(spans(t, 0, 10, 5, 15, 20, 25)); got != 20 {
		t.Fatalf("got %d, want 20", got)
	}
}
`;

const SPAN_TEST_V3 = `${SPAN_TEST_V2}
func TestBusyNested(t *testing.T) {
	if got := Busy(spans(t, 0, 10, 2, 4)); got != 10 {
		t.Fatalf("a span inside another adds nothing: got %d, want 10", got)
	}
}
`;

const SAMPLER_V1 = `// Package sampler picks which spans of a trace to keep.
package sampler

import (
	"sort"

	"example.com/tracekit/span"
)

// Every keeps the first span and then every n-th; n <= 1 keeps all.
func Every(spans []span.Span, n int) []span.Span {
	if n <= 1 {
		return append([]span.Span(nil), spans...)
	}
	var kept []span.Span
	for i := 0; i < len(spans); i += n {
		kept = append(kept, spans[i])
	}
	return kept
}

// AtLeast keeps the spans that lasted at least min.
func AtLeast(spans []span.Span, min int64) []span.Span {
	var kept []span.Span
	for _, s := range spans {
		if s.Duration() >= min {
			kept = append(kept, s)
		}
	}
	return kept
}

// ByName groups spans by name, each group in the order given.
func ByName(spans []span.Span) map[string][]span.Span {
	groups := map[string][]span.Span{}
	for _, s := range spans {
		groups[s.Name] = append(groups[s.Name], s)
	}
	return groups
}

// TopN returns the n longest spans, longest first.
func TopN(spans []span.Span, n int) []span.Span {
	sorted := append([]span.Span(nil), spans...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Duration() > sorted[j].Duration() })
	return sorted[:n]
}
`;

const SAMPLER_V2 = SAMPLER_V1.replace(
  '	return sorted[:n]\n',
  '	if n > len(sorted) {\n		n = len(sorted)\n	}\n	return sorted[:n]\n',
);

const SAMPLER_TEST_V1 = `package sampler

import (
	"testing"

	"example.com/tracekit/span"
)

func trace() []span.Span {
	return []span.Span{
		{Name: "db", Start: 0, End: 30},
		{Name: "http", Start: 5, End: 10},
		{Name: "db", Start: 12, End: 13},
		{Name: "cache", Start: 20, End: 60},
	}
}

func TestEvery(t *testing.T) {
	got := Every(trace(), 2)
	if len(got) != 2 || got[0].Name != "db" || got[1].Start != 12 {
		t.Fatalf("got %v", got)
	}
}

func TestEveryOne(t *testing.T) {
	if got := Every(trace(), 1); len(got) != 4 {
		t.Fatalf("got %d spans, want all 4", len(got))
	}
}

func TestAtLeast(t *testing.T) {
	if got := AtLeast(trace(), 5); len(got) != 3 {
		t.Fatalf("got %v", got)
	}
}

func TestByName(t *testing.T) {
	groups := ByName(trace())
	if len(groups["db"]) != 2 || len(groups["cache"]) != 1 {
		t.Fatalf("got %v", groups)
	}
}

func TestTopN(t *testing.T) {
	got := TopN(trace(), 2)
	if len(got) != 2 || got[0].Name != "cache" || got[1].Name != "db" {
		t.Fatalf("got %v", got)
	}
}
`;

const SAMPLER_TEST_V2 = `${SAMPLER_TEST_V1}
func TestTopNMoreThanAvailable(t *testing.T) {
	if got := TopN(trace(), 10); len(got) != 4 {
		t.Fatalf("got %d spans, want the 4 there are", len(got))
	}
}
`;

/** The names of the Go fixture's tests (top level), as `go test -v` reports them. */
export const GO_TESTS = [
  'TestNew', 'TestDuration', 'TestOverlaps', 'TestTotal', 'TestLongest', 'TestLongestEmpty', 'TestSortByStart', 'TestBusy', 'TestBusyNested',
  'TestEvery', 'TestEveryOne', 'TestAtLeast', 'TestByName', 'TestTopN', 'TestTopNMoreThanAvailable',
];

export function makeGoProject(name = 'tracekit'): Promise<string> {
  return makeGitRepo(name, [
    {
      message: 'Add spans with duration and overlap',
      files: { 'go.mod': GO_MOD, 'README.md': '# tracekit\n\nSpans of a trace and how to sample them.\n', 'span/span.go': SPAN_V1, 'span/helpers_test.go': HELPERS_TEST, 'span/span_test.go': SPAN_TEST_V1 },
    },
    { message: 'Add Longest, SortByStart and Busy', files: { 'span/span.go': SPAN_V2, 'span/span_test.go': SPAN_TEST_V2 } },
    { message: 'Add the sampler package', files: { 'sampler/sampler.go': SAMPLER_V1, 'sampler/sampler_test.go': SAMPLER_TEST_V1 } },
    { message: 'Fix Busy counting a span nested in another', files: { 'span/span.go': SPAN_V3, 'span/span_test.go': SPAN_TEST_V3 } },
    { message: 'Fix TopN panicking when asked for more spans than there are', files: { 'sampler/sampler.go': SAMPLER_V2, 'sampler/sampler_test.go': SAMPLER_TEST_V2 } },
  ]);
}
