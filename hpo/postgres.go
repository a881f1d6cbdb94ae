package hpo

import (
	"errors"
	"fmt"
	"time"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
)

// Postgres is the shared store for workers on many machines: goptuna's
// rdb.v2 storage on PostgreSQL plus a side table of trial leases
// (gdt_trial_leases: owner host, PID, start time, last heartbeat in the
// database's clock), which lets any worker mark the trials of dead workers
// failed.
type Postgres struct {
	*rdb.Storage
	db    *gorm.DB
	owner Owner
}

var _ goptuna.Storage = (*Postgres)(nil)

// leaseModel is a row of gdt_trial_leases.
type leaseModel struct {
	TrialID   int       `gorm:"column:trial_id;primaryKey;autoIncrement:false"`
	Host      string    `gorm:"column:host;type:varchar(255)"`
	PID       int       `gorm:"column:pid"`
	Start     int64     `gorm:"column:pid_start"`
	Token     string    `gorm:"column:token;type:varchar(64)"`
	Heartbeat time.Time `gorm:"column:heartbeat"`
}

func (leaseModel) TableName() string { return "gdt_trial_leases" }

// OpenPostgres connects to dsn (postgres://user@host:port/db?sslmode=…),
// creates goptuna's tables and the lease table when missing.
func OpenPostgres(dsn string) (*Postgres, error) {
	db, err := gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
	if err != nil {
		return nil, fmt.Errorf("hpo: connect to PostgreSQL: %w", err)
	}
	// Two workers migrating at once can race on CREATE TABLE; serialise
	// the migration with an advisory lock.
	err = db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SELECT pg_advisory_xact_lock(727274)").Error; err != nil {
			return err
		}
		if err := rdb.RunAutoMigrate(tx); err != nil {
			return err
		}
		return tx.AutoMigrate(&leaseModel{})
	})
	if err != nil {
		if sqlDB, e := db.DB(); e == nil {
			sqlDB.Close()
		}
		return nil, fmt.Errorf("hpo: create tables in PostgreSQL: %w", err)
	}
	return &Postgres{Storage: rdb.NewStorage(db), db: db, owner: Self()}, nil
}

// Close closes the connection pool.
func (p *Postgres) Close() error {
	sqlDB, err := p.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

func (p *Postgres) lease(tx *gorm.DB, trialID int) error {
	o := p.owner
	row := leaseModel{TrialID: trialID, Host: o.Host, PID: o.PID, Start: int64(o.Start), Token: o.Token}
	return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "trial_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"host", "pid", "pid_start", "token", "heartbeat"})}).
		Create(&row).Error
}

// CreateNewTrial creates a running trial owned by this process.
func (p *Postgres) CreateNewTrial(studyID int) (int, error) {
	id, err := p.Storage.CreateNewTrial(studyID)
	if err != nil {
		return id, err
	}
	if err := p.db.Transaction(func(tx *gorm.DB) error {
		if err := p.lease(tx, id); err != nil {
			return err
		}
		return tx.Exec("UPDATE gdt_trial_leases SET heartbeat = now() WHERE trial_id = ?", id).Error
	}); err != nil {
		return id, fmt.Errorf("hpo: record lease of trial %d: %w", id, err)
	}
	return id, nil
}

// SetTrialState changes a trial's state; moving it to RUNNING makes this
// process its owner.
func (p *Postgres) SetTrialState(trialID int, state goptuna.TrialState) error {
	if err := p.Storage.SetTrialState(trialID, state); err != nil {
		return err
	}
	if state != goptuna.TrialStateRunning {
		return nil
	}
	return p.db.Transaction(func(tx *gorm.DB) error {
		if err := p.lease(tx, trialID); err != nil {
			return err
		}
		return tx.Exec("UPDATE gdt_trial_leases SET heartbeat = now() WHERE trial_id = ?", trialID).Error
	})
}

// Claim creates a running trial owned by this process when the study has
// fewer than budget trials that are complete, pruned or running (checked
// and inserted in one transaction holding the study row's lock);
// it returns -1 when there is no free slot. done counts complete and pruned
// trials.
func (p *Postgres) Claim(studyID, budget int) (trialID, done int, err error) {
	trialID = -1
	err = p.db.Transaction(func(tx *gorm.DB) error {
		var sid int
		if err := tx.Raw("SELECT study_id FROM studies WHERE study_id = ? FOR UPDATE", studyID).Scan(&sid).Error; err != nil {
			return err
		}
		if sid != studyID {
			return goptuna.ErrInvalidStudyID
		}
		var counts []struct {
			State string
			N     int
		}
		if err := tx.Raw("SELECT state, count(*) AS n FROM trials WHERE study_id = ? GROUP BY state", studyID).Scan(&counts).Error; err != nil {
			return err
		}
		total, active := 0, 0
		for _, c := range counts {
			total += c.N
			switch c.State {
			case "COMPLETE", "PRUNED":
				done += c.N
			case "RUNNING":
				active += c.N
			}
		}
		if done+active >= budget {
			return nil
		}
		var id int
		if err := tx.Raw("INSERT INTO trials (number, study_id, state, value, datetime_start) VALUES (?, ?, 'RUNNING', 0, ?) RETURNING trial_id",
			total, studyID, time.Now()).Scan(&id).Error; err != nil {
			return err
		}
		if err := p.lease(tx, id); err != nil {
			return err
		}
		if err := tx.Exec("UPDATE gdt_trial_leases SET heartbeat = now() WHERE trial_id = ?", id).Error; err != nil {
			return err
		}
		trialID = id
		return nil
	})
	if err != nil {
		return -1, 0, fmt.Errorf("hpo: claim a trial: %w", err)
	}
	return trialID, done, nil
}

// Heartbeat renews the lease of a running trial (database clock); it returns
// goptuna.ErrTrialCannotBeUpdated when the trial has finished.
func (p *Postgres) Heartbeat(trialID int) error {
	var state string
	if err := p.db.Raw("SELECT state FROM trials WHERE trial_id = ?", trialID).Scan(&state).Error; err != nil {
		return err
	}
	if state != "RUNNING" && state != "WAITING" {
		return goptuna.ErrTrialCannotBeUpdated
	}
	return p.db.Exec("UPDATE gdt_trial_leases SET heartbeat = now() WHERE trial_id = ?", trialID).Error
}

// ReapStale marks failed the running and waiting trials of the study whose
// owner is known dead (same host, process gone) or whose last heartbeat is
// older than lease (lease ≤ 0: only dead owners).
func (p *Postgres) ReapStale(studyID int, lease time.Duration) ([]int, error) {
	type leaseRow struct {
		trialID, pid int
		host, token  string
		start        int64
		age          float64
	}
	var rows []leaseRow
	res, err := p.db.Raw(`SELECT t.trial_id, l.host, l.pid, l.pid_start, l.token,
		EXTRACT(EPOCH FROM (now() - l.heartbeat))::float8
		FROM trials t JOIN gdt_trial_leases l ON l.trial_id = t.trial_id
		WHERE t.study_id = ? AND t.state IN ('RUNNING', 'WAITING') ORDER BY t.trial_id`, studyID).Rows()
	if err != nil {
		return nil, fmt.Errorf("hpo: read leases: %w", err)
	}
	for res.Next() {
		var r leaseRow
		if err := res.Scan(&r.trialID, &r.host, &r.pid, &r.start, &r.token, &r.age); err != nil {
			res.Close()
			return nil, fmt.Errorf("hpo: read leases: %w", err)
		}
		rows = append(rows, r)
	}
	res.Close()
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("hpo: read leases: %w", err)
	}
	var reaped []int
	t0 := time.Now()
	for _, r := range rows {
		o := Owner{Host: r.host, PID: r.pid, Start: uint64(r.start), Token: r.token}
		beat := t0.Add(-time.Duration(r.age * float64(time.Second)))
		reason := staleReason(o, beat, t0, lease)
		if reason == "" {
			continue
		}
		err := p.Storage.SetTrialState(r.trialID, goptuna.TrialStateFail)
		if errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
			continue // finished meanwhile, or another worker reaped it
		}
		if err != nil {
			return reaped, fmt.Errorf("hpo: mark trial %d failed: %w", r.trialID, err)
		}
		_ = p.Storage.SetTrialSystemAttr(r.trialID, FailReasonAttr, reason)
		reaped = append(reaped, r.trialID)
	}
	return reaped, nil
}
