# Shared by the GPU platform plugins: the common kernels' C++ sources (CoordinationForce's kernel class and its
# plan, arrays, program, kernel set, box and switching-function defines; ContactMapForce's the same), and their
# kernel sources (.cc)
# embedded into a generated C++ file so that the platform compiles them at run time (as one program:
# CommonCoordinationProgram concatenates them in the order of this list).
set(COORDINATION_COMMON_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(COORDINATION_KERNEL_FILES "")
foreach(kernel_name common centers switching sorting neighborList finish numbers tiles reorder contactmap)
    list(APPEND COORDINATION_KERNEL_FILES "${COORDINATION_COMMON_DIR}/src/kernels/${kernel_name}.cc")
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${COORDINATION_KERNEL_FILES})
set(generated_dir "${CMAKE_BINARY_DIR}/generated")
set(header "#ifndef COORDINATION_KERNEL_SOURCES_H_\n#define COORDINATION_KERNEL_SOURCES_H_\n#include <string>\nnamespace CoordinationPlugin {\n/** Kernel sources of platforms/common/src/kernels, compiled by the platform at run time. */\nclass CoordinationKernelSources {\npublic:\n")
set(body "#include \"CoordinationKernelSources.h\"\nusing namespace CoordinationPlugin;\n")
foreach(kernel_file ${COORDINATION_KERNEL_FILES})
    get_filename_component(kernel_name "${kernel_file}" NAME_WE)
    file(READ "${kernel_file}" kernel_text)
    string(APPEND header "    static const std::string ${kernel_name};\n")
    string(APPEND body "const std::string CoordinationKernelSources::${kernel_name} = R\"KERNELSOURCE(${kernel_text})KERNELSOURCE\";\n")
endforeach()
string(APPEND header "};\n} // namespace CoordinationPlugin\n#endif\n")
file(WRITE "${generated_dir}/CoordinationKernelSources.h.new" "${header}")
file(WRITE "${generated_dir}/CoordinationKernelSources.cpp.new" "${body}")
configure_file("${generated_dir}/CoordinationKernelSources.h.new" "${generated_dir}/CoordinationKernelSources.h" COPYONLY)
configure_file("${generated_dir}/CoordinationKernelSources.cpp.new" "${generated_dir}/CoordinationKernelSources.cpp" COPYONLY)

set(COORDINATION_COMMON_SOURCES
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationKernels.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationPlan.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationArrays.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationProgram.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationKernelSet.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCoordinationBox.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonSwitchingDefines.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonCalcContactMapForceKernel.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonContactMapPlan.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonContactMapArrays.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonContactMapProgram.cpp"
    "${COORDINATION_COMMON_DIR}/src/CommonContactMapKernelSet.cpp"
    "${generated_dir}/CoordinationKernelSources.cpp")
set(COORDINATION_COMMON_INCLUDES "${COORDINATION_COMMON_DIR}/include" "${generated_dir}")
