//go:build !amd64 || purego

package optim

const useAVX2 = false

var useAVX512 = false

func kerasAVX2(p, grad, m, v *float32, n int, c1, c2, alpha, eps float32) {
	panic("optim: kerasAVX2 without amd64 assembly")
}

func nzMasksAVX2(grad *float32, words int, out *uint64) {
	panic("optim: nzMasksAVX2 without amd64 assembly")
}

func kerasHotAVX2(p, grad, m, v *float32, words int, c1, c2, alpha, eps float32, hot *uint64) {
	panic("optim: kerasHotAVX2 without amd64 assembly")
}

func kerasListAVX(p, grad, m, v *float32, idx *int32, n int, c1, c2, alpha, eps float32) {
	panic("optim: kerasListAVX without amd64 assembly")
}

type optaxConsts struct {
	c1, c2, b1, b2, bc1, bc2, eps, negLR, owd float32
	decay                                     uint32
	rbc1, rbc2                                float32
}

func optaxAVX512(p, grad, m, v *float32, n int, k *optaxConsts) {
	panic("optim: optaxAVX512 without amd64 assembly")
}

func optaxAVX2(p, grad, m, v *float32, n int, k *optaxConsts) {
	panic("optim: optaxAVX2 without amd64 assembly")
}
