// Printing kiln arrays on a GPU: the values come back from the device (the corners only, for a
// summarized array) and print as NumPy 2 prints the same array. Every expected string was printed
// by /usr/bin/python3 with NumPy 1.24 (whose array2string is NumPy 2's), with the repr's extras
// written as NumPy 2.2 writes them (the shape of a summarized array); the formatting rules
// themselves are tested on the host in tests/unit/test_printing.cpp.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <sstream>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;
using kiln::Slice;

TEST(Printing, DtypesAndViews) {
    KILN_REQUIRE_DEVICE();
    // np.arange(6, dtype=np.float32).reshape(2, 3).T
    const ndarray transposed =
        kiln::arange(0.0, 6.0, 1.0, kiln::float32).reshape({2, 3}).transpose();
    EXPECT_EQ(kiln::array_repr(transposed),
              "array([[0., 3.],\n"
              "       [1., 4.],\n"
              "       [2., 5.]], dtype=float32)");
    EXPECT_EQ(kiln::array_str(transposed),
              "[[0. 3.]\n"
              " [1. 4.]\n"
              " [2. 5.]]");
    // np.arange(20).reshape(4, 5)[::2, ::-2]
    const ndarray stepped = kiln::arange(20).reshape({4, 5})[{Slice{.step = 2}, Slice{.step = -2}}];
    EXPECT_EQ(kiln::array_repr(stepped),
              "array([[ 4,  2,  0],\n"
              "       [14, 12, 10]])");
    EXPECT_EQ(kiln::array_str(stepped),
              "[[ 4  2  0]\n"
              " [14 12 10]]");
    const ndarray halves = kiln::array(std::vector<kiln::half>{
        kiln::half(0.5F), kiln::half(-1.25F), kiln::half(0.1F), kiln::half(65504.0F)});
    EXPECT_EQ(kiln::array_repr(halves),
              "array([ 5.00e-01, -1.25e+00,  1.00e-01,  6.55e+04], dtype=float16)");
    EXPECT_EQ(kiln::array_str(halves), "[ 5.00e-01 -1.25e+00  1.00e-01  6.55e+04]");
    const ndarray small = kiln::array(std::vector<std::int8_t>{-128, 5, 127});
    EXPECT_EQ(kiln::array_repr(small), "array([-128,    5,  127], dtype=int8)");
    EXPECT_EQ(kiln::array_str(small), "[-128    5  127]");
    const ndarray big = kiln::array(std::vector<std::uint64_t>{0, 18446744073709551615U});
    EXPECT_EQ(kiln::array_repr(big),
              "array([                   0, 18446744073709551615], dtype=uint64)");
    EXPECT_EQ(kiln::array_str(big), "[                   0 18446744073709551615]");
    const ndarray flags = kiln::array(std::vector<bool>{true, false, true}, Shape{1, 3});
    EXPECT_EQ(kiln::array_repr(flags), "array([[ True, False,  True]])");
    EXPECT_EQ(kiln::array_str(flags), "[[ True False  True]]");
    // np.array([1 + 2j, -0.5j], dtype=np.complex64): -0.5j has a real part of -0.
    const ndarray z = kiln::array(std::vector<std::complex<float>>{{1, 2}, {-0.0F, -0.5F}});
    EXPECT_EQ(kiln::array_repr(z), "array([ 1.+2.j , -0.-0.5j], dtype=complex64)");
    EXPECT_EQ(kiln::array_str(z), "[ 1.+2.j  -0.-0.5j]");
}

TEST(Printing, ZeroDimensionalAndEmpty) {
    KILN_REQUIRE_DEVICE();
    const ndarray scalar = kiln::full({}, 3.5F);
    EXPECT_EQ(kiln::array_repr(scalar), "array(3.5, dtype=float32)");
    EXPECT_EQ(kiln::array_str(scalar), "3.5");
    const ndarray empty = kiln::zeros({0, 3}, kiln::int16);
    EXPECT_EQ(kiln::array_repr(empty), "array([], shape=(0, 3), dtype=int16)");
    EXPECT_EQ(kiln::array_str(empty), "[]");
}

TEST(Printing, SummarizedArraysFetchTheirCorners) {
    KILN_REQUIRE_DEVICE();
    // np.arange(2000)
    const ndarray line = kiln::arange(2000);
    EXPECT_EQ(kiln::array_repr(line),
              "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))");
    EXPECT_EQ(kiln::array_str(line), "[   0    1    2 ... 1997 1998 1999]");
    // np.arange(2000.).reshape(40, 50) / 8
    const ndarray grid = kiln::arange(0.0, 250.0, 0.125).reshape({40, 50});
    EXPECT_EQ(kiln::array_repr(grid),
              "array([[0.00000e+00, 1.25000e-01, 2.50000e-01, ..., 5.87500e+00,\n"
              "        6.00000e+00, 6.12500e+00],\n"
              "       [6.25000e+00, 6.37500e+00, 6.50000e+00, ..., 1.21250e+01,\n"
              "        1.22500e+01, 1.23750e+01],\n"
              "       [1.25000e+01, 1.26250e+01, 1.27500e+01, ..., 1.83750e+01,\n"
              "        1.85000e+01, 1.86250e+01],\n"
              "       ...,\n"
              "       [2.31250e+02, 2.31375e+02, 2.31500e+02, ..., 2.37125e+02,\n"
              "        2.37250e+02, 2.37375e+02],\n"
              "       [2.37500e+02, 2.37625e+02, 2.37750e+02, ..., 2.43375e+02,\n"
              "        2.43500e+02, 2.43625e+02],\n"
              "       [2.43750e+02, 2.43875e+02, 2.44000e+02, ..., 2.49625e+02,\n"
              "        2.49750e+02, 2.49875e+02]], shape=(40, 50))");
    EXPECT_EQ(kiln::array_str(grid),
              "[[0.00000e+00 1.25000e-01 2.50000e-01 ... 5.87500e+00 6.00000e+00\n"
              "  6.12500e+00]\n"
              " [6.25000e+00 6.37500e+00 6.50000e+00 ... 1.21250e+01 1.22500e+01\n"
              "  1.23750e+01]\n"
              " [1.25000e+01 1.26250e+01 1.27500e+01 ... 1.83750e+01 1.85000e+01\n"
              "  1.86250e+01]\n"
              " ...\n"
              " [2.31250e+02 2.31375e+02 2.31500e+02 ... 2.37125e+02 2.37250e+02\n"
              "  2.37375e+02]\n"
              " [2.37500e+02 2.37625e+02 2.37750e+02 ... 2.43375e+02 2.43500e+02\n"
              "  2.43625e+02]\n"
              " [2.43750e+02 2.43875e+02 2.44000e+02 ... 2.49625e+02 2.49750e+02\n"
              "  2.49875e+02]]");
    // np.arange(1120, dtype=np.int32).reshape(20, 7, 8)[:, ::-1]
    const ndarray cube = kiln::arange(std::int64_t{0}, std::int64_t{1120}, 1, kiln::int32)
                             .reshape({20, 7, 8})[{Slice{}, Slice{.step = -1}}];
    EXPECT_EQ(kiln::array_repr(cube),
              "array([[[  48,   49,   50, ...,   53,   54,   55],\n"
              "        [  40,   41,   42, ...,   45,   46,   47],\n"
              "        [  32,   33,   34, ...,   37,   38,   39],\n"
              "        ...,\n"
              "        [  16,   17,   18, ...,   21,   22,   23],\n"
              "        [   8,    9,   10, ...,   13,   14,   15],\n"
              "        [   0,    1,    2, ...,    5,    6,    7]],\n"
              "\n"
              "       [[ 104,  105,  106, ...,  109,  110,  111],\n"
              "        [  96,   97,   98, ...,  101,  102,  103],\n"
              "        [  88,   89,   90, ...,   93,   94,   95],\n"
              "        ...,\n"
              "        [  72,   73,   74, ...,   77,   78,   79],\n"
              "        [  64,   65,   66, ...,   69,   70,   71],\n"
              "        [  56,   57,   58, ...,   61,   62,   63]],\n"
              "\n"
              "       [[ 160,  161,  162, ...,  165,  166,  167],\n"
              "        [ 152,  153,  154, ...,  157,  158,  159],\n"
              "        [ 144,  145,  146, ...,  149,  150,  151],\n"
              "        ...,\n"
              "        [ 128,  129,  130, ...,  133,  134,  135],\n"
              "        [ 120,  121,  122, ...,  125,  126,  127],\n"
              "        [ 112,  113,  114, ...,  117,  118,  119]],\n"
              "\n"
              "       ...,\n"
              "\n"
              "       [[1000, 1001, 1002, ..., 1005, 1006, 1007],\n"
              "        [ 992,  993,  994, ...,  997,  998,  999],\n"
              "        [ 984,  985,  986, ...,  989,  990,  991],\n"
              "        ...,\n"
              "        [ 968,  969,  970, ...,  973,  974,  975],\n"
              "        [ 960,  961,  962, ...,  965,  966,  967],\n"
              "        [ 952,  953,  954, ...,  957,  958,  959]],\n"
              "\n"
              "       [[1056, 1057, 1058, ..., 1061, 1062, 1063],\n"
              "        [1048, 1049, 1050, ..., 1053, 1054, 1055],\n"
              "        [1040, 1041, 1042, ..., 1045, 1046, 1047],\n"
              "        ...,\n"
              "        [1024, 1025, 1026, ..., 1029, 1030, 1031],\n"
              "        [1016, 1017, 1018, ..., 1021, 1022, 1023],\n"
              "        [1008, 1009, 1010, ..., 1013, 1014, 1015]],\n"
              "\n"
              "       [[1112, 1113, 1114, ..., 1117, 1118, 1119],\n"
              "        [1104, 1105, 1106, ..., 1109, 1110, 1111],\n"
              "        [1096, 1097, 1098, ..., 1101, 1102, 1103],\n"
              "        ...,\n"
              "        [1080, 1081, 1082, ..., 1085, 1086, 1087],\n"
              "        [1072, 1073, 1074, ..., 1077, 1078, 1079],\n"
              "        [1064, 1065, 1066, ..., 1069, 1070, 1071]]],\n"
              "      shape=(20, 7, 8), dtype=int32)");
    EXPECT_EQ(kiln::array_str(cube),
              "[[[  48   49   50 ...   53   54   55]\n"
              "  [  40   41   42 ...   45   46   47]\n"
              "  [  32   33   34 ...   37   38   39]\n"
              "  ...\n"
              "  [  16   17   18 ...   21   22   23]\n"
              "  [   8    9   10 ...   13   14   15]\n"
              "  [   0    1    2 ...    5    6    7]]\n"
              "\n"
              " [[ 104  105  106 ...  109  110  111]\n"
              "  [  96   97   98 ...  101  102  103]\n"
              "  [  88   89   90 ...   93   94   95]\n"
              "  ...\n"
              "  [  72   73   74 ...   77   78   79]\n"
              "  [  64   65   66 ...   69   70   71]\n"
              "  [  56   57   58 ...   61   62   63]]\n"
              "\n"
              " [[ 160  161  162 ...  165  166  167]\n"
              "  [ 152  153  154 ...  157  158  159]\n"
              "  [ 144  145  146 ...  149  150  151]\n"
              "  ...\n"
              "  [ 128  129  130 ...  133  134  135]\n"
              "  [ 120  121  122 ...  125  126  127]\n"
              "  [ 112  113  114 ...  117  118  119]]\n"
              "\n"
              " ...\n"
              "\n"
              " [[1000 1001 1002 ... 1005 1006 1007]\n"
              "  [ 992  993  994 ...  997  998  999]\n"
              "  [ 984  985  986 ...  989  990  991]\n"
              "  ...\n"
              "  [ 968  969  970 ...  973  974  975]\n"
              "  [ 960  961  962 ...  965  966  967]\n"
              "  [ 952  953  954 ...  957  958  959]]\n"
              "\n"
              " [[1056 1057 1058 ... 1061 1062 1063]\n"
              "  [1048 1049 1050 ... 1053 1054 1055]\n"
              "  [1040 1041 1042 ... 1045 1046 1047]\n"
              "  ...\n"
              "  [1024 1025 1026 ... 1029 1030 1031]\n"
              "  [1016 1017 1018 ... 1021 1022 1023]\n"
              "  [1008 1009 1010 ... 1013 1014 1015]]\n"
              "\n"
              " [[1112 1113 1114 ... 1117 1118 1119]\n"
              "  [1104 1105 1106 ... 1109 1110 1111]\n"
              "  [1096 1097 1098 ... 1101 1102 1103]\n"
              "  ...\n"
              "  [1080 1081 1082 ... 1085 1086 1087]\n"
              "  [1072 1073 1074 ... 1077 1078 1079]\n"
              "  [1064 1065 1066 ... 1069 1070 1071]]]");
    // np.arange(1001, dtype=np.float32)[::-1] / 4
    const ndarray wide = kiln::flip(kiln::arange(0.0, 250.25, 0.25, kiln::float32));
    EXPECT_EQ(kiln::array_repr(wide),
              "array([250.  , 249.75, 249.5 , ...,   0.5 ,   0.25,   0.  ],\n"
              "      shape=(1001,), dtype=float32)");
    EXPECT_EQ(kiln::array_str(wide), "[250.   249.75 249.5  ...   0.5    0.25   0.  ]");
}

TEST(Printing, StreamsAndToString) {
    KILN_REQUIRE_DEVICE();
    const ndarray m = kiln::arange(0.0, 4.0, 1.0, kiln::float32).reshape({2, 2});
    const std::string repr = "array([[0., 1.],\n       [2., 3.]], dtype=float32)";
    EXPECT_EQ(kiln::to_string(m), repr);
    EXPECT_EQ(kiln::array_str(m), "[[0. 1.]\n [2. 3.]]");
    // A stream gets what Python's print writes (str), not the repr: NumPy prints a 0-d float64
    // of 2 as "2.0".
    std::ostringstream out;
    out << m;
    EXPECT_EQ(out.str(), "[[0. 1.]\n [2. 3.]]");
    std::ostringstream zero_d;
    zero_d << kiln::sum(kiln::ones({2}));
    EXPECT_EQ(zero_d.str(), "2.0");
}

}  // namespace
