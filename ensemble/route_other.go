//go:build !amd64 || purego

package ensemble

const haveRouteAVX512 = false

func routeAVX512(tabF *int32, tabT *float32, x *float32, off *int32, leaf *int32, trees, depth int, base, step int32) {
	panic("ensemble: routeAVX512 without AVX-512")
}

func accumAVX512(leaf *int32, expW, value, sum, acc *float64, trees int) {
	panic("ensemble: accumAVX512 without AVX-512")
}
