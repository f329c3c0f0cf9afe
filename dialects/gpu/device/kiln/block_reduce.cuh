__device__ __forceinline__ void _kiln_block_reduce(_type_reduce& _acc, _type_reduce* _sh, int _tid,
                                                   int _lane, int _lanes, int _step) {
    int _s = 1;
    for (; _s < _lanes && _s * _step < KILN_WARP_SIZE; _s *= 2) {
        const _type_reduce _other = kiln_shfl_down_words(_acc, _s * _step);
        if ((_lane & (2 * _s - 1)) == 0) {
            _acc = _kiln_reduce(_acc, _other);
        }
    }
    if (_s < _lanes) {
        _sh[_tid] = _acc;
        for (int _t = _lanes / 2; _t >= _s; _t /= 2) {
            __syncthreads();
            if (_lane < _t && (_lane & (_s - 1)) == 0) {
                _sh[_tid] = _kiln_reduce(_sh[_tid], _sh[_tid + _t * _step]);
            }
        }
        _acc = _sh[_tid];
        __syncthreads();
    }
}
