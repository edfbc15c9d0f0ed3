// SPDX-License-Identifier: Apache-2.0
// The DVPP VPC calls: resize, crop, crop-and-paste (single and batch) and colour conversion.
// The picture and ROI rules are acl_dvpp_image.cpp's (its file comment); the scaling range is
// 1/32 to 16 times the crop per direction. Work goes to the DVPP unit's VPC (dvpp_task.h); the
// pixels are computed by image_ops.h when the task ends in simulated time.
#include <string>
#include <vector>

#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "runtime/dvpp/image_args.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using namespace npusim::rt::dvpp;  // NOLINT(google-build-using-namespace)
using npusim::models::DvppModule;

namespace {

Rect roi(const acldvppRoiConfig* r, const std::string& what, const Image& pic, bool paste) {
  require(r != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const Rect rect{r->left, r->right, r->top, r->bottom};
  require(r->right > r->left && r->bottom > r->top, ACL_ERROR_INVALID_PARAM,
          what + ": right/bottom must be greater than left/top");
  require(paste ? r->left % 16 == 0 : r->left % 2 == 0, ACL_ERROR_INVALID_PARAM,
          what + ": left " + std::to_string(r->left) +
              (paste ? " must be a multiple of 16" : " must be even"));
  require(r->top % 2 == 0 && r->right % 2 == 1 && r->bottom % 2 == 1, ACL_ERROR_INVALID_PARAM,
          what + ": top must be even, right and bottom odd");
  require(r->right < pic.width && r->bottom < pic.height, ACL_ERROR_INVALID_PARAM,
          what + " (" + std::to_string(r->left) + ".." + std::to_string(r->right) + " x " +
              std::to_string(r->top) + ".." + std::to_string(r->bottom) + ") is not inside the " +
              std::to_string(pic.width) + "x" + std::to_string(pic.height) + " picture");
  require(rect.width() >= 10 && rect.height() >= 6, ACL_ERROR_INVALID_PARAM,
          what + " is smaller than 10x6");
  return rect;
}

dvpp::Interp interp_of(const acldvppResizeConfig* cfg) {
  require(cfg != nullptr, ACL_ERROR_INVALID_PARAM, "resizeConfig is NULL");
  return cfg->interpolation == 2 ? dvpp::Interp::kNearest : dvpp::Interp::kBilinear;
}

/// One crop (+resize) (+paste) of the VPC.
struct VpcJob {
  Pic in, out;
  Rect crop, paste;
};

dvpp::DvppFrame vpc_frame(const VpcJob& j) {
  return dvpp::frame(j.crop.width(), j.crop.height(),
                     picture_bytes(j.in.image.kind, j.crop.width(), j.crop.height()),
                     j.paste.width(), j.paste.height(),
                     picture_bytes(j.out.image.kind, j.paste.width(), j.paste.height()));
}

/// CANN's VPC scaling range: the output is 1/32 to 16 times the crop in each direction.
void check_scale(const VpcJob& j) {
  const std::uint64_t cw = j.crop.width(), ch = j.crop.height();
  const std::uint64_t pw = j.paste.width(), ph = j.paste.height();
  require(pw * 32 >= cw && pw <= cw * 16 && ph * 32 >= ch && ph <= ch * 16,
          ACL_ERROR_INVALID_PARAM,
          "scaling " + std::to_string(cw) + "x" + std::to_string(ch) + " to " +
              std::to_string(pw) + "x" + std::to_string(ph) +
              " is outside the VPC's [1/32, 16] range per direction");
}

/// Every job's pictures are still allocated (none was freed before the task ran).
bool all_alive(const MemoryRegistry* mem, const std::vector<VpcJob>& jobs) {
  for (const VpcJob& j : jobs) {
    if (!alive(mem, j.in.range, j.out.range)) return false;
  }
  return true;
}

void submit_vpc(Call& c, void* stream, std::vector<VpcJob> jobs, dvpp::Interp interp,
                const char* name) {
  std::vector<dvpp::DvppFrame> frames;
  for (const VpcJob& j : jobs) {
    check_scale(j);
    frames.push_back(vpc_frame(j));
  }
  const MemoryRegistry* mem = &c.runtime().memory();
  dvpp::submit(c, stream, DvppModule::kVpc, std::move(frames), name,
               [mem, jobs = std::move(jobs), interp]() -> int {
                 if (!all_alive(mem, jobs)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                 for (const VpcJob& j : jobs) {
                   dvpp::resize_yuv420sp(j.in.image, j.crop, j.out.image, j.paste, interp);
                 }
                 return 0;
               });
}

void submit_convert(Call& c, void* stream, const Pic& in, const Pic& out) {
  const MemoryRegistry* mem = &c.runtime().memory();
  dvpp::submit(c, stream, DvppModule::kVpc,
               {dvpp::frame(in.image.width, in.image.height, picture_bytes(in.image),
                            out.image.width, out.image.height, picture_bytes(out.image))},
               "VPC_CONVERT_COLOR", [mem, in, out]() -> int {
                 if (!alive(mem, in.range, out.range)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
                 dvpp::convert_color(in.image, out.image);
                 return 0;
               });
}

Rect whole(const Image& img) { return Rect{0, img.width - 1, 0, img.height - 1}; }

/// The job of a single-picture call: its two pictures (the crop and paste areas are set next).
VpcJob single_job(Call& c, const acldvppPicDesc* in, const acldvppPicDesc* out) {
  return VpcJob{vpc_picture(c, in, "inputDesc", false), vpc_picture(c, out, "outputDesc", false),
                {}, {}};
}

}  // namespace

extern "C" {

// ---- VPC ----

aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                               acldvppPicDesc* outputDesc, acldvppResizeConfig* resizeConfig,
                               aclrtStream stream) {
  return api("acldvppVpcResizeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcResizeAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j = single_job(c, inputDesc, outputDesc);
    j.crop = whole(j.in.image);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, interp, "VPC_RESIZE");
  });
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                             acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                             aclrtStream stream) {
  return api("acldvppVpcCropAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropAsync");
    VpcJob j = single_job(c, inputDesc, outputDesc);
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, dvpp::Interp::kBilinear, "VPC_CROP");
  });
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                   acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                   acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcCropResizeAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropResizeAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j = single_job(c, inputDesc, outputDesc);
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = whole(j.out.image);
    submit_vpc(c, stream, {j}, interp, "VPC_CROP_RESIZE");
  });
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                     acldvppRoiConfig* pasteArea, aclrtStream stream) {
  return api("acldvppVpcCropAndPasteAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropAndPasteAsync");
    VpcJob j = single_job(c, inputDesc, outputDesc);
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = roi(pasteArea, "pasteArea", j.out.image, true);
    submit_vpc(c, stream, {j}, dvpp::Interp::kBilinear, "VPC_CROP_AND_PASTE");
  });
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                        acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                        acldvppRoiConfig* pasteArea,
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcCropResizePasteAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcCropResizePasteAsync");
    const dvpp::Interp interp = interp_of(resizeConfig);
    VpcJob j = single_job(c, inputDesc, outputDesc);
    j.crop = roi(cropArea, "cropArea", j.in.image, false);
    j.paste = roi(pasteArea, "pasteArea", j.out.image, true);
    submit_vpc(c, stream, {j}, interp, "VPC_CROP_RESIZE_PASTE");
  });
}

}  // extern "C"

namespace {

/// The ROIs of a batch call: none 0, at most 256 and no more than the destination pictures.
void check_roi_count(const uint32_t* roiNums, uint32_t size, const acldvppBatchPicDesc& dsts) {
  std::uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) {
    require(roiNums[i] > 0, ACL_ERROR_INVALID_PARAM, "roiNums[" + std::to_string(i) + "] is 0");
    total += roiNums[i];
  }
  require(total <= dsts.pics.size(), ACL_ERROR_INVALID_PARAM,
          "the ROIs (" + std::to_string(total) + ") outnumber the destination batch's " +
              std::to_string(dsts.pics.size()) + " pictures");
  require(total <= 256, ACL_ERROR_INVALID_PARAM, "more than 256 ROIs in one batch call");
}

/// The batch calls: srcs[i] gives roiNums[i] crops, in order, to dsts[k] (k over all ROIs).
void batch(Call& c, acldvppChannelDesc* ch, acldvppBatchPicDesc* srcs, uint32_t* roiNums,
           uint32_t size, acldvppBatchPicDesc* dsts, acldvppRoiConfig* crops[],
           acldvppRoiConfig* pastes[], acldvppResizeConfig* resize, void* stream, const char* api,
           const char* name) {
  check_channel(c, ch, DvppModule::kVpc, api);
  require_not_null(srcs, "srcBatchPicDescs");
  require_not_null(dsts, "dstBatchPicDescs");
  require_not_null(roiNums, "roiNums");
  require_not_null(crops, "cropAreas");
  require(size > 0 && size <= srcs->pics.size(), ACL_ERROR_INVALID_PARAM,
          "size " + std::to_string(size) + " is 0 or more than the source batch's " +
              std::to_string(srcs->pics.size()) + " pictures");
  const dvpp::Interp interp = resize != nullptr ? interp_of(resize) : dvpp::Interp::kBilinear;
  check_roi_count(roiNums, size, *dsts);
  std::vector<VpcJob> jobs;
  std::uint32_t k = 0;
  for (uint32_t i = 0; i < size; ++i) {
    const std::string src = "srcBatchPicDescs[" + std::to_string(i) + "]";
    const Pic in = vpc_picture(c, &srcs->pics[i], src, false);
    for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
      const std::string dst = "dstBatchPicDescs[" + std::to_string(k) + "]";
      VpcJob j{in, vpc_picture(c, &dsts->pics[k], dst, false), {}, {}};
      j.crop = roi(crops[k], "cropAreas[" + std::to_string(k) + "]", in.image, false);
      j.paste = pastes != nullptr
                    ? roi(pastes[k], "pasteAreas[" + std::to_string(k) + "]", j.out.image, true)
                    : whole(j.out.image);
      jobs.push_back(j);
    }
  }
  submit_vpc(c, stream, std::move(jobs), interp, name);
}

}  // namespace

extern "C" {

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* channelDesc,
                                  acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                  uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                  acldvppRoiConfig* cropAreas[], aclrtStream stream) {
  return api("acldvppVpcBatchCropAsync", [&](Call& c) {
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          nullptr, stream, "acldvppVpcBatchCropAsync", "VPC_BATCH_CROP");
  });
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* channelDesc,
                                        acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                        uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                        acldvppRoiConfig* cropAreas[],
                                        acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcBatchCropResizeAsync", [&](Call& c) {
    require_not_null(resizeConfig, "resizeConfig");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          resizeConfig, stream, "acldvppVpcBatchCropResizeAsync", "VPC_BATCH_CROP_RESIZE");
  });
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* channelDesc,
                                          acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                          uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                          acldvppRoiConfig* cropAreas[],
                                          acldvppRoiConfig* pasteAreas[], aclrtStream stream) {
  return api("acldvppVpcBatchCropAndPasteAsync", [&](Call& c) {
    require_not_null(pasteAreas, "pasteAreas");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas,
          nullptr, stream, "acldvppVpcBatchCropAndPasteAsync", "VPC_BATCH_CROP_AND_PASTE");
  });
}

aclError acldvppVpcBatchCropResizePasteAsync(
    acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
    uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs, acldvppRoiConfig* cropAreas[],
    acldvppRoiConfig* pasteAreas[], acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api("acldvppVpcBatchCropResizePasteAsync", [&](Call& c) {
    require_not_null(pasteAreas, "pasteAreas");
    require_not_null(resizeConfig, "resizeConfig");
    batch(c, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas,
          resizeConfig, stream, "acldvppVpcBatchCropResizePasteAsync",
          "VPC_BATCH_CROP_RESIZE_PASTE");
  });
}

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                     acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api("acldvppVpcConvertColorAsync", [&](Call& c) {
    check_channel(c, channelDesc, DvppModule::kVpc, "acldvppVpcConvertColorAsync");
    const Pic in = vpc_picture(c, inputDesc, "inputDesc", true);
    const Pic out = vpc_picture(c, outputDesc, "outputDesc", true);
    require(in.image.width == out.image.width && in.image.height == out.image.height,
            ACL_ERROR_INVALID_PARAM,
            "colour conversion keeps the size: inputDesc and outputDesc width/height differ");
    submit_convert(c, stream, in, out);
  });
}

}  // extern "C"
