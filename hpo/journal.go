package hpo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/c-bata/goptuna"
)

// Journal is the embedded store: goptuna's Storage on an append-only file of
// JSON lines, one operation a line. Every operation takes an advisory file
// lock (flock), first replays what other processes appended since, then
// validates and appends its own line and fsyncs, so any number of processes
// on one machine can share a file, and the state survives restarts (opening
// the file replays it). A line torn by a process killed mid-write is cut off
// by the next writer. Trials record their owner process and heartbeats, so
// ReapStale can mark the trials of dead workers failed.
type Journal struct {
	path  string
	f     *os.File
	owner Owner

	mu      sync.Mutex
	off     int64 // bytes of the file applied
	line    int   // lines applied
	studies []*jStudy
	trials  []*jTrial
}

type jStudy struct {
	id        int
	name      string
	direction goptuna.StudyDirection
	user      map[string]string
	system    map[string]string
	trials    []int
	deleted   bool
}

type jTrial struct {
	t     goptuna.FrozenTrial
	owner *Owner
	beat  time.Time
}

// jNum is a float64 that survives JSON (NaN and ±Inf as strings).
type jNum float64

func (n jNum) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return []byte(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func (n *jNum) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		*n = jNum(f)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = jNum(f)
	return err
}

// jRecord is one line of the journal.
type jRecord struct {
	Op     string          `json:"op"`
	Study  int             `json:"study"`
	Trial  int             `json:"trial"`
	Time   time.Time       `json:"time"`
	Name   string          `json:"name,omitempty"`
	Key    string          `json:"key,omitempty"`
	Value  string          `json:"value,omitempty"`
	Num    jNum            `json:"num,omitempty"`
	Step   int             `json:"step,omitempty"`
	State  string          `json:"state,omitempty"`
	Dist   json.RawMessage `json:"dist,omitempty"`
	Owner  *Owner          `json:"owner,omitempty"`
	Frozen *jFrozen        `json:"frozen,omitempty"`
}

// jFrozen is a cloned trial (CloneTrial / EnqueueTrial).
type jFrozen struct {
	State        string                     `json:"state"`
	Value        jNum                       `json:"value"`
	Intermediate map[string]jNum            `json:"intermediate,omitempty"`
	Start        time.Time                  `json:"start"`
	Complete     time.Time                  `json:"complete"`
	Params       map[string]jNum            `json:"params,omitempty"`
	Dists        map[string]json.RawMessage `json:"dists,omitempty"`
	User         map[string]string          `json:"user,omitempty"`
	System       map[string]string          `json:"system,omitempty"`
}

// Journal operations.
const (
	opStudy        = "study"
	opDeleteStudy  = "delete_study"
	opDirection    = "direction"
	opStudyUser    = "study_user_attr"
	opStudySystem  = "study_system_attr"
	opTrial        = "trial"
	opClone        = "clone"
	opValue        = "value"
	opIntermediate = "intermediate"
	opParam        = "param"
	opState        = "state"
	opTrialUser    = "trial_user_attr"
	opTrialSystem  = "trial_system_attr"
	opHeartbeat    = "heartbeat"
)

// FailReasonAttr is the trial system attribute that says why a trial was
// marked failed by a worker other than its own.
const FailReasonAttr = "gdt:fail_reason"

var _ goptuna.Storage = (*Journal)(nil)

// OpenJournal opens (creating if needed) the journal file at path and
// replays it.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("hpo: open journal: %w", err)
	}
	j := &Journal{path: path, f: f, owner: Self()}
	if err := j.locked(false, func() error { return nil }); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// Close closes the file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Close()
}

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// locked runs fn holding the file lock, after catching up with the file.
func (j *Journal) locked(exclusive bool, fn func() error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := lockFile(j.f, exclusive); err != nil {
		return fmt.Errorf("hpo: lock %s: %w", j.path, err)
	}
	defer unlockFile(j.f)
	if err := j.catchUp(exclusive); err != nil {
		return err
	}
	return fn()
}

// catchUp applies the complete lines appended since the last call. A
// trailing partial line can only come from a writer that died (writes happen
// under the exclusive lock); with the exclusive lock it is cut off.
func (j *Journal) catchUp(exclusive bool) error {
	st, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("hpo: %s: %w", j.path, err)
	}
	size := st.Size()
	if size < j.off {
		return fmt.Errorf("hpo: %s shrank from %d to %d bytes: it was truncated or replaced by another program", j.path, j.off, size)
	}
	if size == j.off {
		return nil
	}
	buf := make([]byte, size-j.off)
	if _, err := j.f.ReadAt(buf, j.off); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("hpo: read %s: %w", j.path, err)
	}
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		line := buf[:i]
		j.line++
		if len(bytes.TrimSpace(line)) > 0 {
			var r jRecord
			if err := json.Unmarshal(line, &r); err != nil {
				return fmt.Errorf("hpo: %s:%d: not a journal record: %v", j.path, j.line, err)
			}
			if err := j.apply(&r); err != nil {
				return fmt.Errorf("hpo: %s:%d: %v", j.path, j.line, err)
			}
		}
		j.off += int64(i + 1)
		buf = buf[i+1:]
	}
	if len(buf) > 0 && exclusive {
		if err := j.f.Truncate(j.off); err != nil {
			return fmt.Errorf("hpo: cut torn last line of %s: %w", j.path, err)
		}
	}
	return nil
}

// write appends records (holding the exclusive lock), fsyncs, and applies
// them.
func (j *Journal) write(recs ...*jRecord) error {
	var buf bytes.Buffer
	for _, r := range recs {
		if r.Time.IsZero() {
			r.Time = now()
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("hpo: encode journal record: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if _, err := j.f.WriteAt(buf.Bytes(), j.off); err != nil {
		_ = j.f.Truncate(j.off)
		return fmt.Errorf("hpo: append to %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("hpo: fsync %s: %w", j.path, err)
	}
	j.off += int64(buf.Len())
	for _, r := range recs {
		j.line++
		if err := j.apply(r); err != nil {
			return fmt.Errorf("hpo: %s:%d: %v", j.path, j.line, err)
		}
	}
	return nil
}

// now is the journal's clock: UTC without a monotonic reading, so live state
// and replayed state compare equal.
func now() time.Time { return time.Now().UTC().Round(0) }

func (j *Journal) study(id int) (*jStudy, error) {
	if id < 1 || id > len(j.studies) || j.studies[id-1].deleted {
		return nil, goptuna.ErrInvalidStudyID
	}
	return j.studies[id-1], nil
}

func (j *Journal) trial(id int) (*jTrial, error) {
	if id < 0 || id >= len(j.trials) {
		return nil, goptuna.ErrInvalidTrialID
	}
	return j.trials[id], nil
}

// apply changes the in-memory state by one record.
func (j *Journal) apply(r *jRecord) error {
	switch r.Op {
	case opStudy:
		if r.Study != len(j.studies)+1 {
			return fmt.Errorf("study id %d, expected %d", r.Study, len(j.studies)+1)
		}
		j.studies = append(j.studies, &jStudy{id: r.Study, name: r.Name, direction: goptuna.StudyDirectionMinimize,
			user: map[string]string{}, system: map[string]string{}})
		return nil
	case opTrial, opClone:
		s, err := j.study(r.Study)
		if err != nil {
			return fmt.Errorf("trial %d of study %d: %v", r.Trial, r.Study, err)
		}
		if r.Trial != len(j.trials) {
			return fmt.Errorf("trial id %d, expected %d", r.Trial, len(j.trials))
		}
		t := &jTrial{t: goptuna.FrozenTrial{ID: r.Trial, StudyID: r.Study, Number: len(s.trials), State: goptuna.TrialStateRunning,
			IntermediateValues: map[int]float64{}, DatetimeStart: r.Time, InternalParams: map[string]float64{},
			Params: map[string]interface{}{}, Distributions: map[string]interface{}{}, UserAttrs: map[string]string{},
			SystemAttrs: map[string]string{}}, owner: r.Owner, beat: r.Time}
		if r.State != "" {
			st, err := parseState(r.State)
			if err != nil {
				return err
			}
			t.t.State = st
		}
		if r.Op == opClone {
			if err := applyFrozen(&t.t, r.Frozen); err != nil {
				return err
			}
		}
		j.trials = append(j.trials, t)
		s.trials = append(s.trials, r.Trial)
		return nil
	}
	if r.Op == opDeleteStudy || r.Op == opDirection || r.Op == opStudyUser || r.Op == opStudySystem {
		s, err := j.study(r.Study)
		if err != nil {
			return fmt.Errorf("study %d: %v", r.Study, err)
		}
		switch r.Op {
		case opDeleteStudy:
			s.deleted = true
		case opDirection:
			s.direction = goptuna.StudyDirection(r.Value)
		case opStudyUser:
			s.user[r.Key] = r.Value
		case opStudySystem:
			s.system[r.Key] = r.Value
		}
		return nil
	}
	t, err := j.trial(r.Trial)
	if err != nil {
		return fmt.Errorf("trial %d: %v", r.Trial, err)
	}
	switch r.Op {
	case opValue:
		t.t.Value = float64(r.Num)
	case opIntermediate:
		t.t.IntermediateValues[r.Step] = float64(r.Num)
	case opParam:
		d, err := goptuna.JSONToDistribution(r.Dist)
		if err != nil {
			return fmt.Errorf("param %s: %v", r.Name, err)
		}
		x, err := goptuna.ToExternalRepresentation(d, float64(r.Num))
		if err != nil {
			return fmt.Errorf("param %s: %v", r.Name, err)
		}
		t.t.Distributions[r.Name] = d
		t.t.InternalParams[r.Name] = float64(r.Num)
		t.t.Params[r.Name] = x
	case opState:
		st, err := parseState(r.State)
		if err != nil {
			return err
		}
		t.t.State = st
		if st.IsFinished() {
			t.t.DatetimeComplete = r.Time
		}
		if st == goptuna.TrialStateRunning && r.Owner != nil {
			t.owner, t.beat = r.Owner, r.Time
		}
		if r.Value != "" {
			t.t.SystemAttrs[FailReasonAttr] = r.Value
		}
	case opTrialUser:
		t.t.UserAttrs[r.Key] = r.Value
	case opTrialSystem:
		t.t.SystemAttrs[r.Key] = r.Value
	case opHeartbeat:
		t.beat = r.Time
	default:
		return fmt.Errorf("unknown operation %q", r.Op)
	}
	return nil
}

func applyFrozen(t *goptuna.FrozenTrial, f *jFrozen) error {
	if f == nil {
		return errors.New("clone without trial")
	}
	st, err := parseState(f.State)
	if err != nil {
		return err
	}
	t.State, t.Value, t.DatetimeStart, t.DatetimeComplete = st, float64(f.Value), f.Start, f.Complete
	for k, v := range f.Intermediate {
		step, err := strconv.Atoi(k)
		if err != nil {
			return fmt.Errorf("intermediate step %q: %v", k, err)
		}
		t.IntermediateValues[step] = float64(v)
	}
	for name, v := range f.Params {
		d, err := goptuna.JSONToDistribution(f.Dists[name])
		if err != nil {
			return fmt.Errorf("param %s: %v", name, err)
		}
		x, err := goptuna.ToExternalRepresentation(d, float64(v))
		if err != nil {
			return fmt.Errorf("param %s: %v", name, err)
		}
		t.Distributions[name], t.InternalParams[name], t.Params[name] = d, float64(v), x
	}
	for k, v := range f.User {
		t.UserAttrs[k] = v
	}
	for k, v := range f.System {
		t.SystemAttrs[k] = v
	}
	return nil
}

func parseState(s string) (goptuna.TrialState, error) {
	for _, st := range []goptuna.TrialState{goptuna.TrialStateRunning, goptuna.TrialStateComplete, goptuna.TrialStatePruned,
		goptuna.TrialStateFail, goptuna.TrialStateWaiting} {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("unknown trial state %q", s)
}

func copyFrozen(t goptuna.FrozenTrial) goptuna.FrozenTrial {
	out := t
	out.IntermediateValues = make(map[int]float64, len(t.IntermediateValues))
	for k, v := range t.IntermediateValues {
		out.IntermediateValues[k] = v
	}
	out.InternalParams = make(map[string]float64, len(t.InternalParams))
	for k, v := range t.InternalParams {
		out.InternalParams[k] = v
	}
	out.Params = make(map[string]interface{}, len(t.Params))
	for k, v := range t.Params {
		out.Params[k] = v
	}
	out.Distributions = make(map[string]interface{}, len(t.Distributions))
	for k, v := range t.Distributions {
		out.Distributions[k] = v
	}
	out.UserAttrs = copyMap(t.UserAttrs)
	out.SystemAttrs = copyMap(t.SystemAttrs)
	return out
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// updatable returns the trial if it may still change.
func (j *Journal) updatable(trialID int) (*jTrial, error) {
	t, err := j.trial(trialID)
	if err != nil {
		return nil, err
	}
	if t.t.State.IsFinished() {
		return nil, goptuna.ErrTrialCannotBeUpdated
	}
	return t, nil
}

// CreateNewStudy creates a study and returns its ID.
func (j *Journal) CreateNewStudy(name string) (int, error) {
	var id int
	err := j.locked(true, func() error {
		if name == "" {
			name = fmt.Sprintf("%sjournal-%d", goptuna.DefaultStudyNamePrefix, len(j.studies)+1)
		}
		for _, s := range j.studies {
			if !s.deleted && s.name == name {
				return fmt.Errorf("hpo: study %q already exists in %s", name, j.path)
			}
		}
		id = len(j.studies) + 1
		return j.write(&jRecord{Op: opStudy, Study: id, Name: name})
	})
	return id, err
}

// DeleteStudy marks a study deleted.
func (j *Journal) DeleteStudy(studyID int) error {
	return j.locked(true, func() error {
		if _, err := j.study(studyID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opDeleteStudy, Study: studyID})
	})
}

func (j *Journal) studyOp(op string, studyID int, key, value string) error {
	return j.locked(true, func() error {
		if _, err := j.study(studyID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: op, Study: studyID, Key: key, Value: value})
	})
}

// SetStudyDirection sets the direction of the objective.
func (j *Journal) SetStudyDirection(studyID int, direction goptuna.StudyDirection) error {
	return j.studyOp(opDirection, studyID, "", string(direction))
}

// SetStudyUserAttr sets a user attribute of the study.
func (j *Journal) SetStudyUserAttr(studyID int, key, value string) error {
	return j.studyOp(opStudyUser, studyID, key, value)
}

// SetStudySystemAttr sets a system attribute of the study.
func (j *Journal) SetStudySystemAttr(studyID int, key, value string) error {
	return j.studyOp(opStudySystem, studyID, key, value)
}

func (j *Journal) read(fn func() error) error { return j.locked(false, fn) }

// GetStudyIDFromName returns the ID of the study called name.
func (j *Journal) GetStudyIDFromName(name string) (int, error) {
	id := -1
	err := j.read(func() error {
		for _, s := range j.studies {
			if !s.deleted && s.name == name {
				id = s.id
				return nil
			}
		}
		return fmt.Errorf("hpo: no study %q in %s", name, j.path)
	})
	return id, err
}

// GetStudyIDFromTrialID returns the study of a trial.
func (j *Journal) GetStudyIDFromTrialID(trialID int) (int, error) {
	id := -1
	err := j.read(func() error {
		t, err := j.trial(trialID)
		if err == nil {
			id = t.t.StudyID
		}
		return err
	})
	return id, err
}

// GetStudyNameFromID returns the name of a study.
func (j *Journal) GetStudyNameFromID(studyID int) (string, error) {
	var name string
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err == nil {
			name = s.name
		}
		return err
	})
	return name, err
}

// GetStudyDirection returns the direction of the objective.
func (j *Journal) GetStudyDirection(studyID int) (goptuna.StudyDirection, error) {
	d := goptuna.StudyDirectionMinimize
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err == nil {
			d = s.direction
		}
		return err
	})
	return d, err
}

// GetStudyUserAttrs returns the user attributes of a study.
func (j *Journal) GetStudyUserAttrs(studyID int) (map[string]string, error) {
	var m map[string]string
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err == nil {
			m = copyMap(s.user)
		}
		return err
	})
	return m, err
}

// GetStudySystemAttrs returns the system attributes of a study.
func (j *Journal) GetStudySystemAttrs(studyID int) (map[string]string, error) {
	var m map[string]string
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err == nil {
			m = copyMap(s.system)
		}
		return err
	})
	return m, err
}

// GetAllStudySummaries summarises every study.
func (j *Journal) GetAllStudySummaries() ([]goptuna.StudySummary, error) {
	var out []goptuna.StudySummary
	err := j.read(func() error {
		for _, s := range j.studies {
			if s.deleted {
				continue
			}
			sum := goptuna.StudySummary{ID: s.id, Name: s.name, Direction: s.direction, UserAttrs: copyMap(s.user), SystemAttrs: copyMap(s.system)}
			if best, ok := j.best(s); ok {
				sum.BestTrial = copyFrozen(best.t)
			}
			for _, id := range s.trials {
				if st := j.trials[id].t.DatetimeStart; sum.DatetimeStart.IsZero() || st.Before(sum.DatetimeStart) {
					sum.DatetimeStart = st
				}
			}
			out = append(out, sum)
		}
		return nil
	})
	return out, err
}

func (j *Journal) best(s *jStudy) (*jTrial, bool) {
	var best *jTrial
	for _, id := range s.trials {
		t := j.trials[id]
		if t.t.State != goptuna.TrialStateComplete {
			continue
		}
		if best == nil || (s.direction == goptuna.StudyDirectionMaximize && t.t.Value > best.t.Value) ||
			(s.direction != goptuna.StudyDirectionMaximize && t.t.Value < best.t.Value) {
			best = t
		}
	}
	return best, best != nil
}

// CreateNewTrial creates a running trial owned by this process.
func (j *Journal) CreateNewTrial(studyID int) (int, error) {
	id := -1
	err := j.locked(true, func() error {
		if _, err := j.study(studyID); err != nil {
			return err
		}
		id = len(j.trials)
		owner := j.owner
		return j.write(&jRecord{Op: opTrial, Study: studyID, Trial: id, Owner: &owner})
	})
	return id, err
}

// CloneTrial creates a trial from base (goptuna's EnqueueTrial uses it).
func (j *Journal) CloneTrial(studyID int, base goptuna.FrozenTrial) (int, error) {
	id := -1
	err := j.locked(true, func() error {
		if _, err := j.study(studyID); err != nil {
			return err
		}
		f := &jFrozen{State: base.State.String(), Value: jNum(base.Value), Start: base.DatetimeStart.UTC().Round(0),
			Complete: base.DatetimeComplete.UTC().Round(0), User: base.UserAttrs, System: base.SystemAttrs,
			Params: map[string]jNum{}, Dists: map[string]json.RawMessage{}, Intermediate: map[string]jNum{}}
		if base.DatetimeComplete.IsZero() {
			f.Complete = time.Time{}
		}
		for k, v := range base.IntermediateValues {
			f.Intermediate[strconv.Itoa(k)] = jNum(v)
		}
		for name, v := range base.InternalParams {
			d, err := goptuna.DistributionToJSON(base.Distributions[name])
			if err != nil {
				return fmt.Errorf("hpo: param %s: %w", name, err)
			}
			f.Params[name], f.Dists[name] = jNum(v), d
		}
		id = len(j.trials)
		var owner *Owner
		if !base.State.IsFinished() && base.State != goptuna.TrialStateWaiting {
			o := j.owner
			owner = &o
		}
		return j.write(&jRecord{Op: opClone, Study: studyID, Trial: id, Owner: owner, Frozen: f})
	})
	return id, err
}

// SetTrialValue sets the objective value of an unfinished trial.
func (j *Journal) SetTrialValue(trialID int, value float64) error {
	return j.locked(true, func() error {
		if _, err := j.updatable(trialID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opValue, Trial: trialID, Num: jNum(value)})
	})
}

// SetTrialIntermediateValue records the value at a step (once per step).
func (j *Journal) SetTrialIntermediateValue(trialID int, step int, value float64) error {
	return j.locked(true, func() error {
		t, err := j.updatable(trialID)
		if err != nil {
			return err
		}
		if _, ok := t.t.IntermediateValues[step]; ok {
			return fmt.Errorf("hpo: trial %d already has a value at step %d", trialID, step)
		}
		return j.write(&jRecord{Op: opIntermediate, Trial: trialID, Step: step, Num: jNum(value)})
	})
}

// SetTrialParam records a sampled parameter.
func (j *Journal) SetTrialParam(trialID int, name string, internal float64, distribution interface{}) error {
	d, err := goptuna.DistributionToJSON(distribution)
	if err != nil {
		return err
	}
	if _, err := goptuna.ToExternalRepresentation(distribution, internal); err != nil {
		return err
	}
	return j.locked(true, func() error {
		if _, err := j.updatable(trialID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opParam, Trial: trialID, Name: name, Num: jNum(internal), Dist: d})
	})
}

// SetTrialState changes the state of an unfinished trial. Moving a trial to
// RUNNING makes this process its owner.
func (j *Journal) SetTrialState(trialID int, state goptuna.TrialState) error {
	return j.locked(true, func() error {
		t, err := j.updatable(trialID)
		if err != nil {
			return err
		}
		if t.t.State == state {
			return goptuna.ErrTrialCannotBeUpdated
		}
		r := &jRecord{Op: opState, Trial: trialID, State: state.String()}
		if state == goptuna.TrialStateRunning {
			o := j.owner
			r.Owner = &o
		}
		return j.write(r)
	})
}

// SetTrialUserAttr sets a user attribute of an unfinished trial.
func (j *Journal) SetTrialUserAttr(trialID int, key, value string) error {
	return j.locked(true, func() error {
		if _, err := j.updatable(trialID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opTrialUser, Trial: trialID, Key: key, Value: value})
	})
}

// SetTrialSystemAttr sets a system attribute of an unfinished trial.
func (j *Journal) SetTrialSystemAttr(trialID int, key, value string) error {
	return j.locked(true, func() error {
		if _, err := j.updatable(trialID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opTrialSystem, Trial: trialID, Key: key, Value: value})
	})
}

// GetTrialNumberFromID returns the number of a trial within its study.
func (j *Journal) GetTrialNumberFromID(trialID int) (int, error) {
	n := -1
	err := j.read(func() error {
		t, err := j.trial(trialID)
		if err == nil {
			n = t.t.Number
		}
		return err
	})
	return n, err
}

// GetTrialParam returns the internal value of a parameter.
func (j *Journal) GetTrialParam(trialID int, name string) (float64, error) {
	v := -1.0
	err := j.read(func() error {
		t, err := j.trial(trialID)
		if err != nil {
			return err
		}
		x, ok := t.t.InternalParams[name]
		if !ok {
			return fmt.Errorf("hpo: trial %d has no parameter %q", trialID, name)
		}
		v = x
		return nil
	})
	return v, err
}

// GetTrial returns a copy of a trial.
func (j *Journal) GetTrial(trialID int) (goptuna.FrozenTrial, error) {
	var out goptuna.FrozenTrial
	err := j.read(func() error {
		t, err := j.trial(trialID)
		if err == nil {
			out = copyFrozen(t.t)
		}
		return err
	})
	return out, err
}

// GetAllTrials returns copies of a study's trials in number order.
func (j *Journal) GetAllTrials(studyID int) ([]goptuna.FrozenTrial, error) {
	var out []goptuna.FrozenTrial
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err != nil {
			return err
		}
		out = make([]goptuna.FrozenTrial, len(s.trials))
		for i, id := range s.trials {
			out[i] = copyFrozen(j.trials[id].t)
		}
		return nil
	})
	return out, err
}

// GetBestTrial returns the best complete trial.
func (j *Journal) GetBestTrial(studyID int) (goptuna.FrozenTrial, error) {
	var out goptuna.FrozenTrial
	err := j.read(func() error {
		s, err := j.study(studyID)
		if err != nil {
			return err
		}
		best, ok := j.best(s)
		if !ok {
			return goptuna.ErrNoCompletedTrials
		}
		out = copyFrozen(best.t)
		return nil
	})
	return out, err
}

// GetTrialParams returns the external parameter values of a trial.
func (j *Journal) GetTrialParams(trialID int) (map[string]interface{}, error) {
	t, err := j.GetTrial(trialID)
	return t.Params, err
}

// GetTrialUserAttrs returns the user attributes of a trial.
func (j *Journal) GetTrialUserAttrs(trialID int) (map[string]string, error) {
	t, err := j.GetTrial(trialID)
	return t.UserAttrs, err
}

// GetTrialSystemAttrs returns the system attributes of a trial.
func (j *Journal) GetTrialSystemAttrs(trialID int) (map[string]string, error) {
	t, err := j.GetTrial(trialID)
	return t.SystemAttrs, err
}

// Claim creates a running trial owned by this process when the study has
// fewer than budget trials that are complete, pruned or running; it
// returns -1 when there is no free slot. done is the number of complete and
// pruned trials. (Waiting trials, goptuna's enqueued ones, are not run by
// gdt's workers and take no slot.)
func (j *Journal) Claim(studyID, budget int) (trialID, done int, err error) {
	trialID = -1
	err = j.locked(true, func() error {
		s, err := j.study(studyID)
		if err != nil {
			return err
		}
		active := 0
		for _, id := range s.trials {
			switch j.trials[id].t.State {
			case goptuna.TrialStateComplete, goptuna.TrialStatePruned:
				done++
			case goptuna.TrialStateRunning:
				active++
			}
		}
		if done+active >= budget {
			return nil
		}
		trialID = len(j.trials)
		owner := j.owner
		return j.write(&jRecord{Op: opTrial, Study: studyID, Trial: trialID, Owner: &owner})
	})
	return trialID, done, err
}

// Heartbeat renews the lease of a running trial; it returns
// goptuna.ErrTrialCannotBeUpdated when the trial has finished (for example
// because another worker declared it failed).
func (j *Journal) Heartbeat(trialID int) error {
	return j.locked(true, func() error {
		if _, err := j.updatable(trialID); err != nil {
			return err
		}
		return j.write(&jRecord{Op: opHeartbeat, Trial: trialID})
	})
}

// ReapStale marks failed the running and waiting trials of the study whose
// owner is known dead (same host, process gone) or whose last heartbeat is
// older than lease (lease ≤ 0: only dead owners). It returns their IDs.
func (j *Journal) ReapStale(studyID int, lease time.Duration) ([]int, error) {
	var reaped []int
	err := j.locked(true, func() error {
		s, err := j.study(studyID)
		if err != nil {
			return err
		}
		t0 := now()
		var recs []*jRecord
		for _, id := range s.trials {
			t := j.trials[id]
			if t.t.State.IsFinished() || t.owner == nil {
				continue
			}
			reason := staleReason(*t.owner, t.beat, t0, lease)
			if reason == "" {
				continue
			}
			recs = append(recs, &jRecord{Op: opState, Trial: id, State: goptuna.TrialStateFail.String(), Value: reason})
			reaped = append(reaped, id)
		}
		if len(recs) == 0 {
			return nil
		}
		return j.write(recs...)
	})
	sort.Ints(reaped)
	return reaped, err
}

// staleReason says why a trial with this owner and last heartbeat is stale
// ("" if it is not).
func staleReason(o Owner, beat, t0 time.Time, lease time.Duration) string {
	switch o.Check() {
	case Dead:
		return fmt.Sprintf("worker process %d on %s is gone", o.PID, o.Host)
	case Alive:
		return ""
	}
	if age := t0.Sub(beat); lease > 0 && age > lease {
		return fmt.Sprintf("worker process %d on %s sent no heartbeat for %s (lease %s)", o.PID, o.Host, age.Round(time.Second), lease)
	}
	return ""
}
