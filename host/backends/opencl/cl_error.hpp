// Every OpenCL failure leaves the backend as a DeviceError that names the call and the error code
// (CL_OUT_OF_RESOURCES, ...), so a user can tell a driver problem from a model problem.
#pragma once
#include <CL/opencl.hpp>
#include <string>

namespace clfdtd {

// "CL_OUT_OF_RESOURCES" for -5 etc.; "CL error <n>" for codes this table does not know.
std::string cl_error_name(cl_int code);

// Turns a cl::Error (whose what() is the failing call, e.g. "clCreateBuffer") into a DeviceError:
// "<context>: clCreateBuffer failed with CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)".
[[noreturn]] void throw_device_error(const cl::Error& e, const std::string& context);

}  // namespace clfdtd
