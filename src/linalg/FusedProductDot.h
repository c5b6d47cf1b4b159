#pragma once
// The dispatch of a product fused with the dot product y . x over all of y's texels
// (compute backend; BcrsMatrix's and BandedMatrix's applyAndDot): a kernel in 16 x 16
// workgroups whose partial sums sparse/product_dot_fold.glsl folds through a scratch buffer
// (a zero counter, then one float per workgroup), the last workgroup calling the epilogue.
#include <texstream/gl/Buffer.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>

#include <string>

namespace texstream::linalg {

/// Runs `pass`, whose inputs and first output (y, u_image0) are bound, over layout's W x H
/// texels: sets the fold's uniforms (u_size, u_groupBase, u_totalGroups), binds the
/// epilogue's scalars after y, and `scratch` (made on first use, named scratchName) at
/// storage binding 0. In place: only the last workgroup reads and writes the epilogue's
/// scalars (a status both read and written, say), after every texel of y is written.
void runProductWithDot(stream::Pass& pass, const stream::Layout& layout, const stream::Epilogue& epilogue,
                       gl::Buffer& scratch, const std::string& scratchName);

}  // namespace texstream::linalg
