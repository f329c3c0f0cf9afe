__device__ __forceinline__ void _kiln_block_reduce(_type_reduce& _acc, bool& _have,
                                                   _type_reduce* _sh, bool* _sh_have, int _tid,
                                                   int _lane, int _lanes, int _step) {
    int _s = 1;
    for (; _s < _lanes && _s * _step < KILN_WARP_SIZE; _s *= 2) {
        const _type_reduce _other = kiln_shfl_down_words(_acc, _s * _step);
        const bool _other_have = kiln_shfl_down(int(_have), _s * _step) != 0;
        if ((_lane & (2 * _s - 1)) == 0 && _other_have) {
            _acc = _have ? _kiln_reduce(_acc, _other) : _other;
            _have = true;
        }
    }
    if (_s < _lanes) {
        _sh[_tid] = _acc;
        _sh_have[_tid] = _have;
        for (int _t = _lanes / 2; _t >= _s; _t /= 2) {
            __syncthreads();
            const int _other = _tid + _t * _step;
            if (_lane < _t && (_lane & (_s - 1)) == 0 && _sh_have[_other]) {
                _sh[_tid] = _sh_have[_tid] ? _kiln_reduce(_sh[_tid], _sh[_other]) : _sh[_other];
                _sh_have[_tid] = true;
            }
        }
        _acc = _sh[_tid];
        _have = _sh_have[_tid];
        __syncthreads();
    }
}
