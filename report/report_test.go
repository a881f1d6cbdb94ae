package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

var sections = []string{"summary", "data", "metrics", "learning-curves", "tree", "importance", "explanations"}

// wellFormed parses the page as XML (the report is XHTML-syntax HTML) and
// returns the ids of its elements.
func wellFormed(page []byte) (map[string]bool, error) {
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	dec.Entity = map[string]string{}
	ids := map[string]bool{}
	var stack []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			for _, a := range t.Attr {
				if a.Name.Local == "id" {
					if ids[a.Value] {
						return nil, errors.New("duplicate id " + a.Value)
					}
					ids[a.Value] = true
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		return nil, errors.New("unclosed elements")
	}
	return ids, nil
}

var external = regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//|url\(\s*['"]?https?:|@import`)

type reportCase struct {
	kind     string
	task     data.Task
	rows     []int
	contains []string
}

var reportCases = []reportCase{
	{"cart", data.Binary, []int{0, 5}, []string{"not applicable: CART is grown greedily", "Confusion matrix", "ROC curve", "Decision path"}},
	{"gradtree", data.Multiclass, []int{3}, []string{"training, restart 1 (kept)", "Confusion matrix", "one-vs-rest"}},
	{"grande", data.Binary, []int{0, 5}, []string{"GRANDE ensemble of 12 trees", "instance-wise weight carry", "Tree ", "ROC-AUC"}},
	{"grande", data.Regression, nil, []string{"R²", "predicted against true values"}},
}

func buildCase(t *testing.T, c reportCase) ([]byte, *model.Trained) {
	t.Helper()
	ds := exporttest.Dataset(c.task, 240, 11)
	m := exporttest.Train(t, c.kind, "", ds)
	test := exporttest.Dataset(c.task, 150, 12)
	page, err := Build(m, test.X, test.Y, Config{Rows: c.rows, Model: "m.json", Data: "test.csv"})
	if err != nil {
		t.Fatal(err)
	}
	return page, m
}

func TestReportSections(t *testing.T) {
	for _, c := range reportCases {
		t.Run(c.kind+"/"+c.task.String(), func(t *testing.T) {
			page, _ := buildCase(t, c)
			ids, err := wellFormed(page)
			if err != nil {
				t.Fatalf("the page is not well-formed: %v", err)
			}
			for _, s := range append(sections, "gdt-status") {
				if !ids[s] {
					t.Errorf("no section %q", s)
				}
			}
			for _, w := range c.contains {
				if !bytes.Contains(page, []byte(w)) {
					t.Errorf("the page lacks %q", w)
				}
			}
			if m := external.Find(page); m != nil {
				t.Errorf("the page references the network: %s", m)
			}
		})
	}
}

func TestTargetsAndErrors(t *testing.T) {
	ds := exporttest.Dataset(data.Binary, 60, 1)
	m := exporttest.Train(t, "cart", "", ds)
	tab := &data.Table{Columns: append(append([]*data.Column(nil), ds.X.Columns...),
		data.NewCategorical("target", func() []string {
			s := make([]string, len(ds.Y))
			for i, v := range ds.Y {
				s[i] = ds.Classes[int(v)]
			}
			return s
		}()))}
	y, err := Targets(m, tab)
	if err != nil || len(y) != 60 || y[3] != ds.Y[3] {
		t.Fatalf("Targets: %v %v", y, err)
	}
	tab.Columns[len(tab.Columns)-1].Levels[0] = "maybe"
	if _, err := Targets(m, tab); err == nil || !strings.Contains(err.Error(), `"maybe" is not one of the model's classes`) {
		t.Fatalf("unknown class: %v", err)
	}
	if _, err := Build(m, ds.X, ds.Y, Config{Rows: []int{60}}); err == nil || !strings.Contains(err.Error(), "row 60") {
		t.Fatalf("row out of range: %v", err)
	}
	// no target: the metrics say so
	page, err := Build(m, ds.X, nil, Config{})
	if err != nil || !bytes.Contains(page, []byte("not available: the data has no target column")) {
		t.Fatalf("no target: %v", err)
	}
}

// chromium returns Debian's chromium, or skips.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (Debian: apt-get install -y chromium); skipping the browser test")
	return ""
}

// TestReportInBrowser renders reports in headless Chromium in a 1280 px
// window: the page must load with its script run (the status element says
// "rendered": every figure has a size and every tree's root is within the
// window's width — a GRANDE report and one with a tree wider than the
// window) and a screenshot is taken. Set GDT_REPORT_SHOTS to a directory
// to keep the screenshots.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := chromium(t)
	dir := t.TempDir()
	pages := map[string][]byte{}
	pages["grande"], _ = buildCase(t, reportCases[2])
	wide, ds := wideTree(t)
	var err error
	if pages["wide-cart"], err = Build(wide, ds.X, ds.Y, Config{Rows: []int{0}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"grande", "wide-cart"} {
		page, c := pages[name], reportCase{kind: name}
		sub := filepath.Join(dir, c.kind)
		path, err := writePage(sub, page)
		if err != nil {
			t.Fatal(err)
		}
		url := "file://" + path
		common := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
			"--user-data-dir=" + filepath.Join(dir, "profile-"+c.kind), "--virtual-time-budget=3000"}
		out, err := runBrowser(bin, append(common, "--window-size=1280,900", "--dump-dom", url)...)
		if err != nil {
			t.Fatalf("chromium --dump-dom: %v\n%s", err, out)
		}
		if !strings.Contains(out, `data-status="rendered"`) {
			i := strings.Index(out, "gdt-status")
			t.Fatalf("%s: the page did not render cleanly; status: %q", c.kind, out[max(0, i-20):min(len(out), i+200)])
		}
		for _, s := range sections {
			if !strings.Contains(out, `id="`+s+`"`) {
				t.Errorf("%s: rendered DOM lacks section %s", c.kind, s)
			}
		}
		if name != "grande" {
			t.Logf("%s report rendered: %s", c.kind, statusText(out))
			continue // one screenshot is enough
		}
		shot := filepath.Join(sub, "screenshot.png")
		if out, err := runBrowser(bin, append(common, "--screenshot="+shot, "--window-size=1280,2400", "--hide-scrollbars", url)...); err != nil {
			t.Fatalf("chromium --screenshot: %v\n%s", err, out)
		}
		png, err := os.ReadFile(shot)
		if err != nil || len(png) < 10000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("screenshot %s: %d bytes, %v", shot, len(png), err)
		}
		t.Logf("%s report rendered: %s; screenshot %s (%d bytes)", c.kind, statusText(out), shot, len(png))
		if keep := os.Getenv("GDT_REPORT_SHOTS"); keep != "" {
			os.MkdirAll(keep, 0o755)
			os.WriteFile(filepath.Join(keep, c.kind+"-report.png"), png, 0o644)
			os.WriteFile(filepath.Join(keep, c.kind+"-report.html"), page, 0o644)
		}
	}
}

func writePage(dir string, page []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName)
	return path, os.WriteFile(path, page, 0o644)
}

func runBrowser(bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

func statusText(dom string) string {
	i := strings.Index(dom, `id="gdt-status"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(dom[i:], ">")
	k := strings.Index(dom[i:], "</div>")
	if j < 0 || k < j {
		return ""
	}
	return dom[i+j+1 : i+k]
}
