package model_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	_ "github.com/gdt-ml/gdt/cart" // the kinds whose files are corrupted
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
)

// corruption is one mutated model file and what was done to it.
type corruption struct {
	what string
	b    []byte
}

// corrupt returns mutations of the JSON model file b, field by field:
// every number set to −1, 0, a huge and a fractional value, every array
// emptied, shortened and lengthened, every string emptied and bloated,
// every compact base64 array given a NaN, a huge and a −1 element and
// shortened, every object field deleted; plus truncations and bit flips.
// Arrays longer than three are visited at their first, middle and last
// element only.
func corrupt(t testing.TB, b []byte, seed uint64) []corruption {
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []corruption
	add := func(what string, path []any, v any, del bool) {
		var d any
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		d = set(d, path, v, del)
		nb, err := json.Marshal(d)
		if err != nil {
			return // e.g. a NaN
		}
		out = append(out, corruption{fmt.Sprintf("%s: %s", pathString(path), what), nb})
	}
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		p := append([]any(nil), path...)
		switch v := v.(type) {
		case float64:
			for _, n := range []float64{-1, 0, 1e9, -1e9, 0.5, 2147483648, 1e300} {
				if n != v {
					add(fmt.Sprintf("number %v → %v", v, n), p, n, false)
				}
			}
		case bool:
			add("flipped", p, !v, false)
		case string:
			add("emptied", p, "", false)
			add("bloated", p, strings.Repeat("x", 1<<14), false)
			if raw, err := base64.StdEncoding.DecodeString(v); err == nil && len(v) >= 8 && len(raw)%4 == 0 {
				for _, w := range []struct {
					what string
					bits uint32
				}{{"NaN", 0x7fc00000}, {"+Inf", 0x7f800000}, {"huge", 0x7f7fffff}, {"-1", 0xffffffff}, {"1e9", 1000000000}} {
					for _, at := range []int{0, len(raw)/8*4 - 4 + 4*(len(raw)/4%2), len(raw) - 4} {
						if at < 0 || at+4 > len(raw) {
							continue
						}
						r := append([]byte(nil), raw...)
						binary.LittleEndian.PutUint32(r[at:], w.bits)
						add(fmt.Sprintf("element %d set to %s", at/4, w.what), p, base64.StdEncoding.EncodeToString(r), false)
					}
				}
				add("compact array shortened", p, base64.StdEncoding.EncodeToString(raw[:len(raw)-4]), false)
				add("compact array lengthened", p, base64.StdEncoding.EncodeToString(append(append([]byte(nil), raw...), raw[:4]...)), false)
			}
		case []any:
			add("array emptied", p, []any{}, false)
			if len(v) > 0 {
				add("array shortened", p, v[:len(v)-1], false)
				add("array lengthened", p, append(append([]any(nil), v...), v[len(v)-1]), false)
			}
			idx := []int{}
			if len(v) <= 3 {
				for i := range v {
					idx = append(idx, i)
				}
			} else {
				idx = []int{0, len(v) / 2, len(v) - 1}
			}
			for _, i := range idx {
				walk(v[i], append(p, i))
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "format" || k == "version" {
					continue
				}
				add("field deleted", append(p, k), nil, true)
				walk(v[k], append(p, k))
			}
		}
	}
	walk(doc, nil)
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 1; i <= 8; i++ {
		n := len(b) * i / 9
		out = append(out, corruption{fmt.Sprintf("truncated at byte %d", n), b[:n]})
	}
	for i := 0; i < 24; i++ {
		nb := append([]byte(nil), b...)
		at := r.IntN(len(nb))
		nb[at] ^= 1 << r.IntN(8)
		out = append(out, corruption{fmt.Sprintf("bit flip at byte %d", at), nb})
	}
	return out
}

// set returns d with the value at path replaced by v (or deleted).
func set(d any, path []any, v any, del bool) any {
	if len(path) == 0 {
		return v
	}
	switch k := path[0].(type) {
	case string:
		m := d.(map[string]any)
		if len(path) == 1 && del {
			delete(m, k)
			return m
		}
		m[k] = set(m[k], path[1:], v, del)
		return m
	default:
		a := d.([]any)
		a[k.(int)] = set(a[k.(int)], path[1:], v, del)
		return a
	}
}

func pathString(path []any) string {
	var s []string
	for _, p := range path {
		s = append(s, fmt.Sprint(p))
	}
	return strings.Join(s, ".")
}

// exercise loads a (possibly corrupted) model file as gdt show, predict
// and serve do: decode, rebuild, render, predict the query rows. It returns
// the load error, or an error when the loaded model predicts a non-finite
// value or the wrong number of columns; a panic is re-raised to the caller.
func exercise(b []byte, query *data.Table) (loadErr, badModel error) {
	f, err := modelfile.Read(strings.NewReader(string(b)), "corrupt.gdt.json")
	if err != nil {
		return err, nil
	}
	tr, err := model.FromFile(f, "corrupt.gdt.json")
	if err != nil {
		return err, nil
	}
	_ = tr.Describe()
	for _, format := range []string{"text", "json", "dot"} {
		_, _ = tr.Render(format)
	}
	p, err := tr.PredictProba(query)
	if err != nil {
		return nil, nil // a query the model cannot take is a clear error too
	}
	want := len(tr.Classes)
	if tr.Task == data.Regression {
		want = 1
	}
	if p.Cols != want || p.Rows != query.NumRows() {
		return nil, fmt.Errorf("predicted %d×%d: expected %d rows × %d columns (classes %q)", p.Rows, p.Cols, query.NumRows(), want, tr.Classes)
	}
	for i, v := range p.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("prediction %d is %v", i, v)
		}
	}
	pred := model.Decide(tr.Task, p)
	for _, v := range pred {
		if tr.Task != data.Regression && (v < 0 || int(v) >= len(tr.Classes)) {
			return nil, fmt.Errorf("predicted class %v of %d", v, len(tr.Classes))
		}
	}
	return nil, nil
}

// TestCorruptModelFiles mutates the golden model files of every kind and
// version (cart, gradtree, grande, random-forest; versions 1 and 2) field
// by field (see corrupt) and checks that loading gives an
// error or a model that predicts finite values of the right shape — never
// a panic.
func TestCorruptModelFiles(t *testing.T) {
	debug.SetMaxStack(64 << 20)
	query := datasets.Demo().X
	files, err := filepath.Glob("../modelfile/testdata/v*/*.gdt.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden model files: %v", err)
	}
	total, rejected, panics, bad := 0, 0, 0, 0
	for fi, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if le, bm := exercise(b, query); le != nil || bm != nil {
			t.Fatalf("%s: the uncorrupted file fails: %v %v", path, le, bm)
		}
		cs := corrupt(t, b, uint64(fi))
		// Every corruption with GDT_CORRUPT_ALL=1 (≈10,000 files, a minute
		// or more); by default every 24th (every 60th with -short), so
		// go test ./... stays quick.
		stride := 24
		if testing.Short() {
			stride = 60
		}
		if os.Getenv("GDT_CORRUPT_ALL") != "" {
			stride = 1
		}
		for ci, c := range cs {
			if ci%stride != fi%stride {
				continue
			}
			total++
			if os.Getenv("GDT_CORRUPT_TRACE") != "" {
				fmt.Fprintln(os.Stderr, path, c.what)
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						panics++
						t.Errorf("%s: %s: panic: %v", path, c.what, r)
					}
				}()
				le, bm := exercise(c.b, query)
				if le != nil {
					rejected++
				}
				if bm != nil {
					bad++
					t.Errorf("%s: %s: loaded, but %v", path, c.what, bm)
				}
			}()
		}
	}
	t.Logf("%d corrupted files over %d originals: %d rejected with an error, %d panics, %d loaded with bad predictions", total, len(files), rejected, panics, bad)
}
