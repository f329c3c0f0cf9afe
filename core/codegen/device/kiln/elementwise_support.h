template <int N>
struct kiln_dims {
    long long v[N];
};
struct kiln_index {
    long long n;
    __device__ long long size() const { return n; }
};
template <class T>
struct kiln_raw_c {
    char* p;
    __device__ T& operator[](long long i) const { return reinterpret_cast<T*>(p)[i]; }
};
template <class T, int N>
struct kiln_raw {
    char* p;
    long long shape[N];
    long long strides[N];
    __device__ T& operator[](long long i) const {
        long long offset = 0;
        for (int d = N - 1; d >= 0; --d) {
            offset += (i % shape[d]) * strides[d];
            i /= shape[d];
        }
        return *reinterpret_cast<T*>(p + offset);
    }
};
struct alignas(16) kiln_tile_unit {
    char bytes[16];
};
__device__ inline long long kiln_magnitude(long long v) {
    return v < 0 ? -v : v;
}
