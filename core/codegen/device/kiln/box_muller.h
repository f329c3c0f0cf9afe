__device__ inline double kiln_box_muller_log(double x) {
    int e = 0;
    double m = frexp(x, &e);
    if (m < KILN_BOX_MULLER_SQRT_HALF) {
        m = m + m;
        e = e - 1;
    }
    const double k = e;
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double w = s * s;
    const double h = 0.5 * f;
    double p;
    KILN_BOX_MULLER_LOG_SERIES
    const double t = fma(s, fma(h, f, w * p), k * KILN_BOX_MULLER_LN2_LO);
    return fma(k, KILN_BOX_MULLER_LN2_HI, -(fma(h, f, -t) - f));
}
__device__ inline double kiln_box_muller_cos_two_pi(double u) {
    const double q = rint(4.0 * u);
    const double r = fma(q, -0.25, u);
    const double w = r * r;
    double p;
    KILN_BOX_MULLER_COS_SERIES
    const double cos_r = p;
    KILN_BOX_MULLER_SIN_SERIES
    const double sin_r =
        fma(KILN_BOX_MULLER_TWO_PI_HI, r, r * fma(p, w, KILN_BOX_MULLER_TWO_PI_LO));
    switch (static_cast<int>(q) & 3) {
        case 0:
            return cos_r;
        case 1:
            return -sin_r;
        case 2:
            return -cos_r;
        default:
            return sin_r;
    }
}
