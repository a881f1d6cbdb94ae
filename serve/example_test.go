package serve_test

import (
	"context"
	"log"
	"net"
	"os/signal"
	"syscall"

	"github.com/gdt-ml/gdt/serve"
)

// Serving two saved models on 127.0.0.1:8080 until SIGINT/SIGTERM, as
// gdt serve does.
func Example() {
	s, err := serve.New(serve.Config{}, "loans.json", "churn=models/grande-churn.json")
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// POST /v1/models/loans/predict {"rows": [{"age": 37, "income": 52000, "housing": "rent"}], "explain": true}
	if err := s.Run(ctx, ln); err != nil {
		log.Fatal(err)
	}
}
