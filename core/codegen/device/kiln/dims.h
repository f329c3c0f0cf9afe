struct kiln_dims {
    long long shape[32];
    long long dst[32];
    long long src[32];
    int ndim;
};
// Byte offsets of linear index i in the destination and the source.
__device__ void kiln_offsets(const kiln_dims& d, long long i, long long& dst, long long& src) {
    dst = 0;
    src = 0;
    for (int k = d.ndim - 1; k >= 0; --k) {
        const long long index = i % d.shape[k];
        i /= d.shape[k];
        dst += index * d.dst[k];
        src += index * d.src[k];
    }
}
