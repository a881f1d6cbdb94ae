//go:build !amd64 || purego

package tree

const haveDeltasAVX512 = false

func treeDeltasAVX512(*deltaArgs) { panic("tree: no AVX-512") }

func scatterTreeAVX512(*scatterArgs) uint64 { panic("tree: no AVX-512") }

func weightSumsAVX512(*sumArgs) { panic("tree: no AVX-512") }

const haveForwardAVX512 = false

func forwardBlockAVX512(*fwdArgs) bool { panic("tree: no AVX-512") }
