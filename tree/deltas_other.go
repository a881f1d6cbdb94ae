//go:build !amd64 || purego

package tree

const haveDeltasAVX512 = false

func treeDeltasAVX512(*deltaArgs) { panic("tree: no AVX-512") }
