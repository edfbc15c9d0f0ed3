// SPDX-License-Identifier: Apache-2.0
// The twin's data-movement, L0C-output and memory-management additions for CANN 9's basic-API
// examples: DataCopy with SliceInfo, Fixpipe to L1 and with per-channel quantisation, the
// Fixpipe registers with DataCopy(DataCopyCO12DstParams), ListTensorDesc, GetTPipePtr at global
// scope: values, recorded pipes and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "npusim/ascendc/block_runner.h"

namespace {

using npusim::ascendc::Mem;
using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

/// The run failed with a KernelError whose message contains `what`.
void expect_kernel_error(const npusim::ascendc::RunResult& r, const std::string& what) {
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find(what), std::string::npos) << r.first_error();
}

// ---- DataCopy with SliceInfo ----

// src: 3 x 87 floats; dst: 2 x 48, rows 0 and 2, columns 16..39 and 47..70 of src (two bursts of
// three 32-byte blocks per row, 7 elements apart), through UB.
extern "C" __global__ __vector__ void slice_kernel(GM_ADDR dst, GM_ADDR src) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst));
  const AscendC::SliceInfo in[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
  const AscendC::SliceInfo out[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
  AscendC::LocalTensor<float> ub(AscendC::TPosition::VECIN, 0, 96);
  AscendC::DataCopy(ub, gs, out, in, 2);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  AscendC::DataCopy(gd, ub, out, out, 2);
}

TEST(SliceCopy, CopiesTheSelectedBurstsOnMte2AndMte3) {
  std::vector<float> src(3 * 87), dst(96, -1.0f);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  auto r = run_blocks(&slice_kernel, 1, reinterpret_cast<GM_ADDR>(dst.data()),
                      reinterpret_cast<GM_ADDR>(src.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 2; ++row) {
    const int s = row == 0 ? 0 : 2;
    for (int j = 0; j < 24; ++j) {
      EXPECT_EQ(dst[row * 48 + j], src[s * 87 + 16 + j]) << row << "," << j;
      EXPECT_EQ(dst[row * 48 + 24 + j], src[s * 87 + 47 + j]) << row << "," << j;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kMte2);
  EXPECT_EQ(t.instrs[0].dst, Mem::kUb);
  EXPECT_EQ(t.instrs[0].count, 4u);  // four bursts
  EXPECT_EQ(t.instrs[0].bytes, 96u * sizeof(float));
  EXPECT_EQ(t.instrs[0].gm_addr, reinterpret_cast<std::uintptr_t>(src.data() + 16));
  EXPECT_EQ(t.instrs[0].gm_pitch, 31u * sizeof(float));
  EXPECT_EQ(t.instrs[1].pipe, Pipe::kMte3);
  EXPECT_EQ(t.instrs[1].count, 4u);
  ASSERT_EQ(t.instrs[1].dep_count, 1u);  // the flag: after the copy in
  EXPECT_EQ(t.deps[t.instrs[1].dep_begin], 0u);
}

extern "C" __global__ __vector__ void slice_mismatch(GM_ADDR src) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<float> gs;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  const AscendC::SliceInfo in[] = {{0, 63, 0, 1, 64}};   // 8 bursts of 8 floats
  const AscendC::SliceInfo out[] = {{0, 31, 0, 1, 32}};  // 4 bursts
  AscendC::LocalTensor<float> ub(AscendC::TPosition::VECIN, 0, 64);
  AscendC::DataCopy(ub, gs, out, in);
}

TEST(SliceCopy, BurstCountMismatchIsAKernelError) {
  std::vector<float> src(64);
  auto r = run_blocks(&slice_mismatch, 1, reinterpret_cast<GM_ADDR>(src.data()));
  expect_kernel_error(r,
                      "DataCopy(SliceInfo): source has 8 bursts of 8 elements, "
                      "destination 4 of 8");
}

// ---- Fixpipe to L1, per-channel quantisation, the Fixpipe registers ----

// L0C (one 16 x 16 float fractal, value (r * 16 + c) - 100) -> L1 as half NZ with ReLU ->
// GM (MTE3).
extern "C" __global__ __cube__ void fixpipe_to_l1(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
  for (std::uint32_t i = 0; i < 256; ++i) c(i) = static_cast<float>(i) - 100.0f;
  AscendC::LocalTensor<half> l1(AscendC::TPosition::C1, 0, 256);
  AscendC::FixpipeParamsV220 p(16, 16, 16, 16, true);
  p.quantPre = QuantMode_t::F322F16;
  AscendC::Fixpipe<half, float, AscendC::CFG_NZ>(l1, c, p);
  AscendC::SetFlag<AscendC::HardEvent::FIX_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::FIX_MTE3>(EVENT_ID0);
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
  AscendC::DataCopy(g, l1, 256);
}

TEST(FixpipeExt, L0cToL1OnTheFixpipe) {
  std::vector<std::uint16_t> out(256, 0xffff);
  auto r = run_blocks(&fixpipe_to_l1, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 256; ++i) {
    const float want = i < 100 ? 0.0f : static_cast<float>(i - 100);
    EXPECT_EQ(static_cast<float>(half::from_bits(out[i])), want) << i;
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kFixpipe);
  EXPECT_EQ(t.instrs[0].src, Mem::kL0c);
  EXPECT_EQ(t.instrs[0].dst, Mem::kL1);
  EXPECT_EQ(t.instrs[0].gm_addr, 0u);
  EXPECT_EQ(t.instrs[1].src, Mem::kL1);  // the copy out (recorded on MTE1 today)
  EXPECT_EQ(t.instrs[1].dst, Mem::kGm);
}

// int32 L0C (value c - 8 in column c of a 16 x 32 result) -> GM int8 with VREQ8: column c's
// scale is 0.5 * (c % 4 + 1) and column 5 adds an offset of -3. Quant words in the fixpipe buffer
// (C2PIPE2GM), set with SetFixPipeConfig, used by DataCopy(DataCopyCO12DstParams) with ND output.
extern "C" __global__ __cube__ void co12_vector_quant(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int32_t> c(AscendC::TPosition::CO1, 0, 512);
  for (std::uint32_t i = 0; i < 512; ++i)
    c(i) = static_cast<std::int32_t>((i / 256) * 16 + i % 16) - 8;
  AscendC::LocalTensor<std::uint64_t> fb(AscendC::TPosition::C2PIPE2GM, 0, 32);
  for (std::uint32_t n = 0; n < 32; ++n) {
    const float scale = 0.5f * static_cast<float>(n % 4 + 1);
    std::uint32_t bits;
    std::memcpy(&bits, &scale, sizeof bits);
    fb(n) = bits | (n == 5 ? (std::uint64_t{0x1fd} << 37) : 0) | (std::uint64_t{1} << 46);
  }
  AscendC::SetFixPipeConfig(fb);
  AscendC::SetFixpipeNz2ndFlag(1, 0, 0);
  AscendC::DataCopyCO12DstParams d;
  d.nSize = 32;
  d.mSize = 16;
  d.srcStride = 16;
  d.dstStride = 32;
  d.quantPre = QuantMode_t::VREQ8;
  d.nz2ndEn = true;
  AscendC::GlobalTensor<std::int8_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ std::int8_t*>(out));
  AscendC::DataCopy(g, c, d);
}

TEST(FixpipeExt, VectorQuantWithTheFixpipeRegisters) {
  std::vector<std::int8_t> out(16 * 32, 99);
  auto r = run_blocks(&co12_vector_quant, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 16; ++row) {
    for (int n = 0; n < 32; ++n) {
      const float x = static_cast<float>(n - 8) * 0.5f * static_cast<float>(n % 4 + 1);
      int want = static_cast<int>(std::nearbyint(x)) + (n == 5 ? -3 : 0);
      want = want < -128 ? -128 : want > 127 ? 127 : want;
      EXPECT_EQ(out[row * 32 + n], want) << row << "," << n;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 1u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kFixpipe);
  EXPECT_EQ(t.instrs[0].dst, Mem::kGm);
  EXPECT_EQ(t.instrs[0].count, 16u);  // ND rows
}

// DEQF16 with the scalar register and ReLU, ND output with two matrices (SetFixpipeNz2ndFlag).
extern "C" __global__ __cube__ void co12_scalar_deq(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int32_t> c(AscendC::TPosition::CO1, 0, 512);
  for (std::uint32_t i = 0; i < 512; ++i) c(i) = static_cast<std::int32_t>(i) - 300;
  const float scale = 0.25f;
  std::uint32_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  AscendC::SetFixpipePreQuantFlag(bits);
  AscendC::SetFixpipeNz2ndFlag(2, 1, 256);  // matrix t from fractal t, to element t * 256
  AscendC::DataCopyCO12DstParams d;
  d.nSize = d.mSize = d.srcStride = 16;
  d.dstStride = 16;
  d.quantPre = QuantMode_t::DEQF16;
  d.reluPre = 1;
  d.nz2ndEn = true;
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
  AscendC::DataCopy(g, c, d);
}

TEST(FixpipeExt, ScalarDequantTwoNdMatrices) {
  std::vector<std::uint16_t> out(512, 0xffff);
  auto r = run_blocks(&co12_scalar_deq, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 512; ++i) {
    const float want = i < 300 ? 0.0f : static_cast<float>(i - 300) * 0.25f;
    EXPECT_EQ(static_cast<float>(half::from_bits(out[i])), want) << i;
  }
}

extern "C" __global__ __cube__ void co12_vector_quant_unset(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int32_t> c(AscendC::TPosition::CO1, 0, 256);
  AscendC::DataCopyCO12DstParams d;
  d.nSize = d.mSize = d.srcStride = 16;
  d.dstStride = 16;
  d.quantPre = QuantMode_t::VDEQF16;
  d.nz2ndEn = true;
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
  AscendC::DataCopy(g, c, d);
}

TEST(FixpipeExt, VectorQuantWithoutATensorIsAKernelError) {
  std::vector<std::uint16_t> out(256);
  auto r = run_blocks(&co12_vector_quant_unset, 1, reinterpret_cast<GM_ADDR>(out.data()));
  expect_kernel_error(r, "no per-channel quantisation tensor");
}

// ---- ListTensorDesc, GetTPipePtr ----

// Reports GetSize, tensor 1's dim / index / shape and both data pointers' first values.
extern "C" __global__ __vector__ void list_desc(GM_ADDR list, GM_ADDR out) {
  AscendC::ListTensorDesc l(reinterpret_cast<__gm__ void*>(list));
  auto* o = reinterpret_cast<__gm__ std::uint64_t*>(out);
  o[0] = l.GetSize();
  std::uint64_t shape[4] = {};
  AscendC::TensorDesc<float> d;
  d.SetShapeAddr(shape);
  l.GetDesc(d, 1);
  o[1] = d.GetDim();
  o[2] = d.GetIndex();
  o[3] = d.GetShape(0) * 1000 + d.GetShape(1) * 10 + d.GetShape(2);
  o[4] = static_cast<std::uint64_t>(*l.GetDataPtr<float>(0));
  o[5] = static_cast<std::uint64_t>(d.GetDataObj().GetValue(0));
}

TEST(ListTensor, ParsesDescriptorsAndPointers) {
  float x = 7.0f, y = 9.0f;
  // ptrOffset, {dim 2, index 0}, 4, 8, {dim 3, index 1}, 2, 3, 5, ptr x, ptr y
  std::vector<std::uint64_t> list = {0,
                                     2,
                                     4,
                                     8,
                                     (std::uint64_t{1} << 32) | 3,
                                     2,
                                     3,
                                     5,
                                     reinterpret_cast<std::uintptr_t>(&x),
                                     reinterpret_cast<std::uintptr_t>(&y)};
  list[0] = 8 * 8;
  std::vector<std::uint64_t> out(6, 0);
  auto r = run_blocks(&list_desc, 1, reinterpret_cast<GM_ADDR>(list.data()),
                      reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(out, (std::vector<std::uint64_t>{2, 3, 1, 2035, 7, 9}));
  for (const auto& ins : r.blocks[0].trace.instrs) EXPECT_EQ(ins.pipe, Pipe::kScalar);
}

extern "C" __global__ __vector__ void list_bad(GM_ADDR list) {
  AscendC::ListTensorDesc l(reinterpret_cast<__gm__ void*>(list),
                            AscendC::ListTensorDesc::kUnchecked, 3);
}

TEST(ListTensor, WrongPointerCountIsAKernelError) {
  std::vector<std::uint64_t> list = {24, 1, 4, 0};
  auto r = run_blocks(&list_bad, 1, reinterpret_cast<GM_ADDR>(list.data()));
  expect_kernel_error(r, "3 data pointers given, the list holds 1");
}

extern "C" __global__ __vector__ void tpipe_ptr(GM_ADDR out) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  GetTPipePtr()->InitBuffer(buf, 64);
  *reinterpret_cast<__gm__ std::uint32_t*>(out) =
      (GetTPipePtr() == &pipe ? 1u : 0u) + buf.Get<float>().GetSize() * 10;
}

TEST(MemoryExt, GetTPipePtrAtGlobalScope) {
  std::uint32_t out = 0;
  auto r = run_blocks(&tpipe_ptr, 1, reinterpret_cast<GM_ADDR>(&out));
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(out, 161u);
}

// ---- Load3Dv2 ----

// A 2 x 17 feature map of 16 half channels (NC1HWC0, value = address % 97 - 40) through a 2 x 2
// filter: 16 output positions x 64 columns (c1, filter h, filter w, c0). Writes X to L0A (zZ),
// X^T to L0A and X to L0B (nZ), and copies the three back out through GM for checking.
extern "C" __global__ __cube__ void load3d_kernel(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 2 * 17 * 16);
  for (std::uint32_t i = 0; i < 2 * 17 * 16; ++i)
    l1(i) = static_cast<half>(static_cast<float>(i % 97) - 40.0f);
  AscendC::LoadData3DParamsV2<half> p;
  p.l1H = 2;
  p.l1W = 17;
  p.channelSize = 16;
  p.kExtension = 64;
  p.mExtension = 16;
  p.filterH = 2;
  p.filterW = 2;
  AscendC::LocalTensor<half> a(AscendC::TPosition::A2, 0, 1024);
  AscendC::LocalTensor<half> at(AscendC::TPosition::A2, 2048, 1024);
  AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 1024);
  AscendC::LoadData(a, l1, p);
  p.enTranspose = true;
  AscendC::LoadData(at, l1, p);
  AscendC::LoadData(b, l1, p);  // enTranspose has no effect on L0B
  auto* o = reinterpret_cast<__gm__ half*>(out);
  for (std::uint32_t i = 0; i < 1024; ++i) {
    o[i] = a(i);
    o[1024 + i] = at(i);
    o[2048 + i] = b(i);
  }
}

TEST(Load3d, Im2colIntoL0aL0bLayouts) {
  std::vector<half> out(3 * 1024);
  auto r = run_blocks(&load3d_kernel, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  auto x = [](int i, int j) {  // X[position i][column j]
    const int c0 = j % 16, kpos = j / 16 % 4, kh = kpos / 2, kw = kpos % 2;
    return static_cast<float>((((kh * 17) + i + kw) * 16 + c0) % 97) - 40.0f;
  };
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 64; ++j) {
      const int za = ((i / 16) * 4 + j / 16) * 256 + (i % 16) * 16 + j % 16;  // 16 x 64 zZ
      const int zt = ((j / 16) * 1 + i / 16) * 256 + (j % 16) * 16 + i % 16;  // 64 x 16 zZ
      const int nb = ((i / 16) * 4 + j / 16) * 256 + (j % 16) * 16 + i % 16;  // 16 x 64 nZ
      EXPECT_EQ(static_cast<float>(out[za]), x(i, j)) << i << "," << j;
      EXPECT_EQ(static_cast<float>(out[1024 + zt]), x(i, j)) << i << "," << j;
      EXPECT_EQ(static_cast<float>(out[2048 + nb]), x(i, j)) << i << "," << j;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 3u);
  for (const auto& ins : t.instrs) {
    EXPECT_EQ(ins.pipe, Pipe::kMte1);
    EXPECT_EQ(ins.src, Mem::kL1);
    EXPECT_EQ(ins.count, 4u);  // 2048 bytes = 4 fractals
  }
  EXPECT_EQ(t.instrs[2].dst, Mem::kL0b);
}

extern "C" __global__ __cube__ void load3d_int8_l0b(GM_ADDR) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int8_t> l1(AscendC::TPosition::B1, 0, 1024);
  AscendC::LocalTensor<std::int8_t> b(AscendC::TPosition::B2, 0, 1024);
  AscendC::LoadData3DParamsV2<std::int8_t> p;
  p.l1H = 1;
  p.l1W = 32;
  p.channelSize = 32;
  p.kExtension = 32;
  p.mExtension = 32;
  AscendC::LoadData(b, l1, p);
}

TEST(Load3d, Int8IntoL0bIsAKernelError) {
  auto r = run_blocks(&load3d_int8_l0b, 1, static_cast<GM_ADDR>(nullptr));
  expect_kernel_error(r, "8-bit data cannot go to L0B");
}

// ---- TBufPool ----

class SplitPool {
 public:
  SplitPool() { Init(); }
  template <class Que>
  bool InitBuffer(Que& que, std::uint8_t num, std::uint32_t len) {  // buffers 64 bytes apart
    auto h = GetBufHandle(GetCurBufSize());
    que.InitStartBufHandle(h, num, len);
    for (std::uint32_t i = 0; i < num; ++i)
      que.InitBufHandle(this, i, h, GetCurAddr() + i * (len + 64), len);
    SetCurAddr(GetCurAddr() + num * (len + 64));
    SetCurBufSize(GetCurBufSize() + num);
    return true;
  }
  EXTERN_IMPL_BUFPOOL(SplitPool, AscendC::TPosition::VECCALC, 8);
};

// Reports the UB addresses the pools hand out: pool 1 at the pipe's start, pool 2 sharing it,
// a sub-pool after a buffer of pool 3, and a custom pool's gapped buffers.
extern "C" __global__ __vector__ void buf_pools(GM_ADDR out) {
  auto* o = reinterpret_cast<__gm__ std::uint32_t*>(out);
  AscendC::TPipe pipe;
  AscendC::TBufPool<AscendC::TPosition::VECCALC> p1, p2, p3, sub;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q1, q2;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tb;
  pipe.InitBufPool(p1, 1000);
  pipe.InitBufPool(p2, 512, p1);
  p1.InitBuffer(q1, 2, 100);  // 2 x 128 bytes
  p1.InitBuffer(tb, 32);
  auto t1 = q1.AllocTensor<float>();
  o[0] = static_cast<std::uint32_t>(t1.GetPhyAddr());
  q1.FreeTensor(t1);
  t1 = q1.AllocTensor<float>();
  o[1] = static_cast<std::uint32_t>(t1.GetPhyAddr());
  o[2] = static_cast<std::uint32_t>(tb.Get<float>().GetPhyAddr());
  p1.Reset();
  p2.InitBuffer(q2, 1, 64);
  auto t2 = q2.AllocTensor<float>();
  o[3] = static_cast<std::uint32_t>(t2.GetPhyAddr());
  pipe.InitBufPool(p3, 4096);
  p3.InitBuffer(tb, 256);
  p3.InitBufPool(sub, 512);
  sub.InitBuffer(q2, 1, 64);
  t2 = q2.AllocTensor<float>();
  o[4] = static_cast<std::uint32_t>(t2.GetPhyAddr());
  SplitPool custom;
  pipe.InitBufPool(custom, 1024);
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> q3;
  custom.InitBuffer(q3, 2, 128);
  auto a = q3.AllocTensor<half>();
  auto b = q3.AllocTensor<half>();
  o[5] = static_cast<std::uint32_t>(a.GetPhyAddr());
  o[6] = static_cast<std::uint32_t>(b.GetPhyAddr());
  o[7] = custom.GetCurBufSize();
}

TEST(BufPool, PoolsCarveShareAndSubdivide) {
  std::vector<std::uint32_t> out(8, 0xffffffffu);
  auto r = run_blocks(&buf_pools, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  // p1 [0, 1024), p2 shares it; p3 [1024, 5120): tb [1024, 1280), sub [1280, 1792); the
  // custom pool [5120, 6144) with its buffers 192 bytes apart.
  EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 128, 256, 0, 1280, 5120, 5312, 2}));
}

extern "C" __global__ __vector__ void buf_pool_overflow(GM_ADDR) {
  AscendC::TPipe pipe;
  AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
  pipe.InitBufPool(pool, 256);
  pool.InitBuffer(q, 2, 160);
}

TEST(BufPool, BuffersBeyondThePoolAreAKernelError) {
  auto r = run_blocks(&buf_pool_overflow, 1, static_cast<GM_ADDR>(nullptr));
  expect_kernel_error(r, "TBufPool::InitBuffer: 320 bytes at address 0 leave the pool [0, 256)");
}

// ---- Copy (UB -> UB, vector pipe) ----

// The first 8 of each 64-element row of an 18 x 64 int32 matrix into an 18 x 8 one (count mask),
// then every other half of a 128-element half row (bit mask), with a second repeat.
extern "C" __global__ __vector__ void copy_kernel(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int32_t> src(AscendC::TPosition::VECIN, 0, 18 * 64);
  AscendC::LocalTensor<std::int32_t> dst(AscendC::TPosition::VECOUT, 8192, 18 * 8);
  for (std::uint32_t i = 0; i < 18 * 64; ++i) src(i) = static_cast<std::int32_t>(i);
  for (std::uint32_t i = 0; i < 18 * 8; ++i) dst(i) = -1;
  AscendC::Copy(dst, src, 8, 18, {1, 1, 1, 8});
  AscendC::LocalTensor<half> hs(AscendC::TPosition::VECIN, 16384, 256);
  AscendC::LocalTensor<half> hd(AscendC::TPosition::VECOUT, 16896, 256);
  for (std::uint32_t i = 0; i < 256; ++i) {
    hs(i) = static_cast<half>(static_cast<float>(i));
    hd(i) = static_cast<half>(-1.0f);
  }
  const std::uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
  AscendC::Copy(hd, hs, mask, 2, {1, 1, 8, 8});
  auto* o = reinterpret_cast<__gm__ float*>(out);
  for (std::uint32_t i = 0; i < 18 * 8; ++i) o[i] = static_cast<float>(dst(i));
  for (std::uint32_t i = 0; i < 256; ++i) o[144 + i] = static_cast<float>(hd(i));
}

TEST(VectorCopy, RepeatsWithCountAndBitMasksOnTheVectorPipe) {
  std::vector<float> out(144 + 256);
  auto r = run_blocks(&copy_kernel, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 18; ++row)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(out[row * 8 + j], row * 64 + j) << row << "," << j;
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[144 + i], i % 2 == 0 ? i : -1) << i;
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kVector);
  EXPECT_EQ(t.instrs[0].op, npusim::ascendc::Op::kCopy);
  EXPECT_EQ(t.instrs[0].count, 144u);
  EXPECT_EQ(t.instrs[1].count, 128u);
}

// ---- bias, 2:4 sparse ----

float cube_b(int k, int n) { return static_cast<float>((k * 3 + n) % 7) - 3.0f; }
float bias_of(int n) { return 0.5f * static_cast<float>(n) - 4.0f; }

// out[0..256): bias + A * B for a 16 x 16 x 16 product with A(m, k) = m - k (5-argument form);
// out[256..512): the same with the bias taken from the bias table by cmatrixSource.
extern "C" __global__ __cube__ void cube_extras(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<half> a(AscendC::TPosition::A2, 0, 256);
  AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 256);
  AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
  AscendC::LocalTensor<float> bias(AscendC::TPosition::C2, 0, 16);
  for (int k = 0; k < 16; ++k) {
    for (int n = 0; n < 16; ++n) b(n * 16 + k) = static_cast<half>(cube_b(k, n));
    for (int m = 0; m < 16; ++m) a(m * 16 + k) = static_cast<half>(static_cast<float>(m - k));
  }
  for (int n = 0; n < 16; ++n) bias(n) = bias_of(n);
  auto* o = reinterpret_cast<__gm__ float*>(out);
  AscendC::Mmad(c, a, b, bias, AscendC::MmadParams(16, 16, 16));
  for (int i = 0; i < 256; ++i) o[i] = c(i);
  AscendC::MmadParams p(16, 16, 16);
  p.cmatrixInitVal = false;
  p.cmatrixSource = true;
  AscendC::Mmad(c, a, b, p);
  for (int i = 0; i < 256; ++i) o[256 + i] = c(i);
}

TEST(CubeExt, BiasForms) {
  std::vector<float> out(512);
  auto r = run_blocks(&cube_extras, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 16; ++n) {
      float want = bias_of(n);
      for (int k = 0; k < 16; ++k) want += static_cast<float>(m - k) * cube_b(k, n);
      EXPECT_EQ(out[m * 16 + n], want) << m << "," << n;
      EXPECT_EQ(out[256 + m * 16 + n], want) << m << "," << n;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  for (const auto& ins : t.instrs) EXPECT_EQ(ins.pipe, Pipe::kCube);
}

int sparse_a(int m, int k) { return (m + 3 * k) % 11 - 5; }
int sparse_b(int d, int n) { return (d * 5 + n) % 7 - 3; }
int sparse_v(int d, int n) { return (d * 7 + n) % 3; }

// A: 16 x 64 int8 (zZ) in L0A; the densified B (32 x 16, one nZ fractal) and its indices in L1,
// moved by LoadDataWithSparse; C = A * B(sparse) through MmadWithSparse.
extern "C" __global__ __cube__ void sparse_kernel(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int8_t> a(AscendC::TPosition::A2, 0, 1024);
  AscendC::LocalTensor<std::int8_t> b1(AscendC::TPosition::B1, 0, 512);
  AscendC::LocalTensor<std::uint8_t> idx(AscendC::TPosition::B1, 4096, 128);
  AscendC::LocalTensor<std::int8_t> b2(AscendC::TPosition::B2, 0, 512);
  AscendC::LocalTensor<std::int32_t> c(AscendC::TPosition::CO1, 0, 256);
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 64; ++k)
      a((k / 32) * 512 + m * 32 + k % 32) = static_cast<std::int8_t>(sparse_a(m, k));
  for (int i = 0; i < 128; ++i) idx(i) = 0;
  for (int n = 0; n < 16; ++n) {
    for (int d = 0; d < 32; ++d) {
      const int e = n * 32 + d;
      b1(e) = static_cast<std::int8_t>(sparse_b(d, n));
      idx(e / 4) = static_cast<std::uint8_t>(idx(e / 4) | (sparse_v(d, n) << (2 * (e % 4))));
    }
  }
  AscendC::LoadData2DParams lp;
  lp.repeatTimes = 1;
  AscendC::LoadDataWithSparse(b2, b1, idx, lp);
  AscendC::MmadWithSparse(c, a, b2, AscendC::MmadParams(16, 16, 64, false, 0, false, false, false));
  auto* o = reinterpret_cast<__gm__ std::int32_t*>(out);
  for (int i = 0; i < 256; ++i) o[i] = c(i);
}

TEST(CubeExt, SparseMmadPicksTheIndexedRows) {
  std::vector<std::int32_t> out(256);
  auto r = run_blocks(&sparse_kernel, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 16; ++n) {
      int want = 0;
      for (int d = 0; d < 32; ++d)
        want += sparse_a(m, (d / 2) * 4 + sparse_v(d, n) + d % 2) * sparse_b(d, n);
      EXPECT_EQ(out[m * 16 + n], want) << m << "," << n;
    }
  }
  const auto& t = r.blocks[0].trace;
  ASSERT_EQ(t.instrs.size(), 2u);
  EXPECT_EQ(t.instrs[0].pipe, Pipe::kMte1);
  EXPECT_EQ(t.instrs[0].bytes, 640u);
  EXPECT_EQ(t.instrs[1].pipe, Pipe::kCube);
  EXPECT_EQ(t.instrs[1].k, 32u);
  ASSERT_EQ(t.instrs[1].dep_count, 0u);  // no flag between them in this kernel
}

// ---- 8-bit LoadDataWithTranspose ----

// One 32 x 32 int8 square (value (r * 32 + c) % 251 - 100) into two L0B fractals, the second
// one fractal further (dstFracGap 1).
extern "C" __global__ __cube__ void transpose_b8(GM_ADDR out) {
  AscendC::InitSocState();
  AscendC::LocalTensor<std::int8_t> l1(AscendC::TPosition::B1, 0, 1024);
  AscendC::LocalTensor<std::int8_t> b(AscendC::TPosition::B2, 0, 2048);
  for (int i = 0; i < 1024; ++i) l1(i) = static_cast<std::int8_t>(i % 251 - 100);
  AscendC::LoadDataWithTranspose(b, l1, AscendC::LoadData2dTransposeParams(0, 1, 0, 0, 1, 0));
  auto* o = reinterpret_cast<__gm__ std::int8_t*>(out);
  for (int i = 0; i < 2048; ++i) o[i] = b(i);
}

TEST(CubeExt, TransposeOf8BitSquares) {
  std::vector<std::int8_t> out(2048, 0);
  auto r = run_blocks(&transpose_b8, 1, reinterpret_cast<GM_ADDR>(out.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 32; ++row) {  // row of the transpose = column of the square
    for (int c = 0; c < 32; ++c) {
      const int at = (row / 16) * 1024 + (row % 16) * 32 + c;
      EXPECT_EQ(out[at], static_cast<std::int8_t>((c * 32 + row) % 251 - 100)) << row << "," << c;
    }
  }
  ASSERT_EQ(r.blocks[0].trace.instrs.size(), 1u);
  EXPECT_EQ(r.blocks[0].trace.instrs[0].pipe, Pipe::kMte1);
}

}  // namespace
