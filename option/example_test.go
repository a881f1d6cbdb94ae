package option_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/option"
)

// A kind declares each option once, bound to its configuration field;
// parsing, checking, defaults and formatting all read that declaration.
func Example() {
	type Config struct {
		Depth int
		Rate  float64
	}
	decl := &option.List[Config]{Kind: "toy", Options: []option.Option[Config]{
		option.IntOpt("depth", "6", 1, 16, "tree depth", func(c *Config) any { return &c.Depth }),
		option.FloatOpt("rate", "0.01", 0, option.Unbounded, "learning rate", func(c *Config) any { return &c.Rate }).Open(true, false).LogScale(),
	}}
	c, err := decl.Parse(map[string]string{"depth": "4"})
	fmt.Println(c, err)
	fmt.Println(decl.Defaults(c, ""))
	_, err = decl.Parse(map[string]string{"depth": "20"})
	fmt.Println(err)
	s, _ := decl.Lookup("rate")
	fmt.Println(s.Key, s.DefaultText(), s.Range(), s.Log)
	fast := decl.WithDefaults("toy-fast", map[string]string{"depth": "3"})
	fmt.Println(fast.Defaults(Config{}, ""))
	// Output:
	// {4 0} <nil>
	// {4 0.01}
	// toy: option depth="20": out of range: expected 1…16
	// rate 0.01 > 0 true
	// {3 0.01}
}
