package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "predict", summary: "predict with a saved model on a data file", run: runPredict})
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if multimodalModelArg(args) != "" {
		return runPredictMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("predict", "MODEL --data FILE [--out FILE.csv] [--proba] [--json] [--strict] [flags]",
		"Applies a saved model to every row of FILE and writes one CSV row per input row: the\n"+
			"prediction and, with --proba, the probability of every class. Columns are matched\n"+
			"by name; extra columns (e.g. the target) are ignored. With --json the predictions are one\n"+
			"JSON document instead (class names, and with --proba the probability rows).\n"+
			"FILE is read, predicted and written a chunk of rows at a time; --out FILE.csv appears\n"+
			"only when every row succeeded (on standard output, an error follows the rows before it).\n"+
			"A category level never seen in training is encoded as the unseen level; the rows per column\n"+
			"holding one are a warning on standard error (and \"unseen\" with --json), an error with --strict.\n"+
			"A multimodal MODEL (gdt train --model multimodal) also takes --images DIR: see gdt predict MODEL --help.", stderr)
	var df dataFlags
	df.register(fs, false)
	out := fs.String("out", "", "write predictions to this CSV file (default: standard output)")
	proba := fs.Bool("proba", false, "also write class probabilities")
	asJSON := jsonFlag(fs)
	cpuprofile := fs.String("cpuprofile", "", "write a Go CPU profile of the whole command to this file (go tool pprof)")
	strict := fs.Bool("strict", false, "make a category level never seen in training an error (without it: a warning on standard error, and the row is encoded as the unseen level)")
	timings := fs.Bool("timings", false, "print to standard error how long each stage (read, preprocess, predict, write) worked")
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	start := time.Now()
	if *cpuprofile != "" {
		stopProfile, err := startCPUProfile(*cpuprofile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	if df.path == "" {
		return fmt.Errorf("%w: --data is required", errUsage)
	}
	t, err := loadTabular(arg, "predict")
	if err != nil {
		return err
	}
	opt, err := df.options()
	if err != nil {
		return err
	}
	opt = t.ReadOptions(opt) // training types and missing markers
	chunks, err := data.OpenChunks(df.path, opt)
	if err != nil {
		return err
	}
	defer chunks.Close()
	withProba := *proba && t.Task != data.Regression
	unseen := &unseenLevels{known: t.KnownLevels(), strict: *strict, rest: chunks, path: df.path}
	var rows int
	var busy stageTimes
	loaded := time.Since(start)
	if *timings {
		defer func() {
			wall := time.Since(start)
			fmt.Fprintf(stderr, "timings: %d rows in %.3f s wall (%.0f rows/s); model load %.3f s; busy: read %.3f s, preprocess %.3f s, predict %.3f s, write %.3f s\n",
				rows, wall.Seconds(), float64(rows)/wall.Seconds(), loaded.Seconds(), busy.read.Seconds(), busy.transform.Seconds(), busy.predict.Seconds(), busy.write.Seconds())
		}()
	}
	write := func(w io.Writer) error {
		pw := newPredictionWriter(w, t, withProba)
		var err error
		if rows, err = predictChunks(ctx, t, df.path, chunks, unseen.add, &busy, pw.write); err != nil {
			return err
		}
		return pw.flush()
	}
	if *asJSON {
		write = func(w io.Writer) error {
			var pred []float64
			p := &data.Matrix{}
			var err error
			rows, err = predictChunks(ctx, t, df.path, chunks, unseen.add, &busy, func(pc *data.Matrix, d []float64) error {
				pred = append(pred, d...)
				p.Rows, p.Cols, p.Data = p.Rows+pc.Rows, pc.Cols, append(p.Data, pc.Data...)
				return nil
			})
			if err != nil {
				return err
			}
			doc := predictionsJSON(arg, t, pred, p, *proba)
			doc["unseen"] = unseen.json()
			return writeJSON(w, doc)
		}
	}
	if *out == "" {
		err := write(stdout)
		if err == nil {
			unseen.warn(stderr)
		}
		return err
	}
	if err := safefile.Write(*out, write); err != nil {
		return err
	}
	unseen.warn(stderr)
	if *asJSON {
		return writeJSON(stdout, map[string]any{"model": arg, "data": df.path, "out": *out, "rows": rows, "unseen": unseen.json()})
	}
	fmt.Fprintf(stderr, "wrote %d predictions to %s\n", rows, *out)
	return nil
}

// unseenLevels counts, chunk by chunk, the rows holding a category level
// the model never saw in training; with strict, the first such chunk
// ends the prediction with an error that counts them over the whole file.
type unseenLevels struct {
	known  *model.KnownLevels
	strict bool
	rest   *data.Chunks // the chunks still to read (strict counting)
	path   string
	counts model.Unseen
}

// add counts the unseen levels of ch; with strict and any found, it reads
// the rest of the file to count them all and returns the error.
func (u *unseenLevels) add(ch *data.Chunk) error {
	c := u.known.Count(ch.Table)
	u.counts.Add(c)
	if !u.strict || len(c) == 0 {
		return nil
	}
	for {
		ch, err := u.rest.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		u.counts.Add(u.known.Count(ch.Table))
	}
	return fmt.Errorf("%s: category levels never seen in training (--strict): %s", u.path, u.counts)
}

// warn writes the warning about unseen levels, if any.
func (u *unseenLevels) warn(w io.Writer) {
	if len(u.counts) > 0 {
		fmt.Fprintf(w, "warning: %s: category levels never seen in training, each encoded as the unseen level (--strict makes this an error): %s\n", u.path, u.counts)
	}
}

// json returns the counts for a --json document ([] when none).
func (u *unseenLevels) json() model.Unseen {
	if u.counts == nil {
		return model.Unseen{}
	}
	return u.counts
}

// predictChunks predicts the rows of chunks with t and hands the class
// probabilities (regression: the values) and decisions of each chunk to
// emit, in file order. check sees every chunk as it is read (an error
// from it ends the prediction there). Reading, preprocessing, predicting and emitting run
// in four goroutines, one chunk apart, so at most a few chunks are held at
// once. It returns the number of rows predicted and adds the time each
// stage worked (waits for its neighbours excluded) to busy.
func predictChunks(ctx context.Context, t *model.Trained, path string, chunks *data.Chunks, check func(*data.Chunk) error, busy *stageTimes, emit func(p *data.Matrix, pred []float64) error) (int, error) {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	type step struct {
		ch  *data.Chunk
		x   *data.Matrix
		p   *data.Matrix
		err error
	}
	send := func(c chan<- step, s step) bool {
		select {
		case c <- s:
			return s.err == nil
		case <-ctx.Done():
			return false
		}
	}
	read, encoded, done := make(chan step, 1), make(chan step, 1), make(chan step, 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(read)
		for {
			t0 := time.Now()
			ch, err := chunks.Next()
			if err == nil {
				err = check(ch)
			}
			busy.read += time.Since(t0)
			if err == io.EOF || !send(read, step{ch: ch, err: err}) {
				return
			}
		}
	})
	wg.Go(func() {
		defer close(encoded)
		for s := range read {
			if s.err == nil {
				t0 := time.Now()
				if s.x, s.err = t.TransformRows(s.ch.Table, s.ch.First); s.err != nil {
					s.err = fmt.Errorf("%s: %w", path, s.err)
				}
				busy.transform += time.Since(t0)
			}
			if !send(encoded, s) {
				return
			}
		}
	})
	wg.Go(func() {
		defer close(done)
		for s := range encoded {
			if s.err == nil {
				t0 := time.Now()
				if s.p, s.err = t.Learner.PredictProba(s.x); s.err != nil {
					s.err = fmt.Errorf("%s: %w", path, s.err)
				}
				busy.predict += time.Since(t0)
			}
			if !send(done, s) {
				return
			}
		}
	})
	rows := 0
	var err error
	for s := range done {
		if err = s.err; err == nil {
			t0 := time.Now()
			err = emit(s.p, model.Decide(t.Task, s.p))
			busy.write += time.Since(t0)
		}
		if err != nil {
			break
		}
		rows += s.p.Rows
	}
	cancel()
	for range done { // let the stages see the cancellation and stop
	}
	wg.Wait()
	if err == nil {
		err = parent.Err()
	}
	return rows, err
}

// predictionsJSON is the document of `gdt predict --json`: per row the
// predicted class name (or regression value) and, with --proba, the class
// probabilities in the order of "classes".
func predictionsJSON(path string, t *model.Trained, pred []float64, p *data.Matrix, proba bool) map[string]any {
	preds := make([]any, len(pred))
	for i, v := range pred {
		if t.Task == data.Regression {
			preds[i] = jsonFloat(v)
		} else {
			preds[i] = t.Classes[int(v)]
		}
	}
	doc := map[string]any{"model": path, "kind": t.Spec.Kind, "task": t.Task.String(), "rows": len(pred), "predictions": preds}
	if t.Task != data.Regression {
		doc["classes"] = t.Classes
		if proba {
			rows := make([][]jsonFloat, p.Rows)
			for i := range rows {
				rows[i] = make([]jsonFloat, p.Cols)
				for c := range rows[i] {
					rows[i][c] = jsonFloat(float32Decimal(p.At(i, c)))
				}
			}
			doc["proba"] = rows
		}
	}
	return doc
}

// float32Decimal returns the float64 nearest to the shortest decimal that
// identifies v as a float32, so that JSON shows 0.96551724, not
// 0.9655172228813171.
func float32Decimal(v float32) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
	return f
}

// stageTimes are the times the stages of predictChunks worked. Each field
// is written by one goroutine only and read after they all stopped.
type stageTimes struct {
	read, transform, predict, write time.Duration
}

// predictionWriter writes the CSV of gdt predict: a header, then per row
// the prediction and, with proba, every class probability. The bytes are
// those of encoding/csv with strconv.FormatFloat fields (class names and
// header fields are quoted by encoding/csv once, here), written through
// one buffer.
type predictionWriter struct {
	w          *bufio.Writer
	regression bool
	proba      bool     // write the probabilities of the len(classes) classes
	classes    [][]byte // CSV-encoded class names
	head       []byte
	line       []byte
}

func newPredictionWriter(w io.Writer, t *model.Trained, proba bool) *predictionWriter {
	head := []string{"prediction"}
	if proba {
		for _, c := range t.Classes {
			head = append(head, "p_"+c)
		}
	}
	pw := &predictionWriter{w: bufio.NewWriterSize(w, 1<<16), regression: t.Task == data.Regression, proba: proba}
	pw.head = csvLine(head...)
	for _, c := range t.Classes {
		pw.classes = append(pw.classes, bytes.TrimSuffix(csvLine(c), []byte("\n")))
	}
	return pw
}

// csvLine returns fields as encoding/csv writes them, newline included.
func csvLine(fields ...string) []byte {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write(fields)
	cw.Flush()
	return b.Bytes()
}

// write writes the rows of one chunk (and the header before the first).
func (pw *predictionWriter) write(p *data.Matrix, pred []float64) error {
	if pw.head != nil {
		if _, err := pw.w.Write(pw.head); err != nil {
			return err
		}
		pw.head = nil
	}
	for i, v := range pred {
		b := pw.line[:0]
		if pw.regression {
			b = strconv.AppendFloat(b, v, 'g', 8, 64)
		} else {
			b = append(b, pw.classes[int(v)]...)
		}
		if pw.proba {
			for _, q := range p.Row(i)[:len(pw.classes)] {
				b = append(b, ',')
				b = strconv.AppendFloat(b, float64(q), 'g', 6, 32)
			}
		}
		b = append(b, '\n')
		pw.line = b
		if _, err := pw.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// flush writes what is buffered (the header when there were no rows).
func (pw *predictionWriter) flush() error {
	if err := pw.write(&data.Matrix{}, nil); err != nil {
		return err
	}
	return pw.w.Flush()
}

// startCPUProfile starts a CPU profile written to path and returns the
// function that ends it.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpuprofile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
