# `cmake --install build --prefix PREFIX`: headers, libraries, tools and a
# CMake package, so that another project's
#
#   find_package(TCC CONFIG REQUIRED)      # -DTCC_DIR=PREFIX/lib/cmake/tcc
#   target_link_libraries(my-opt PRIVATE TCC::TCCPipelines)
#
# gets tcc's dialects, passes and pipeline builders (examples/embed/), and
# C callers TCC::TCCCAPI. The libraries are static and link the shared
# libMLIR/libLLVM, as tcc's own tools do.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)
set(TCC_INSTALL_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tcc)

# add_mlir_library puts its libraries into the MLIRTargets export set (and
# installs them); the others join it here, and the whole set is tcc's.
set(TCC_MLIR_STYLE_LIBS TCCDialect TCCFusionDialect TCCLibDialect TCCAnalysis
  TCCTarget TCCTransforms TCCToLinalg TCCFusionToLibrary TCCLibToLLVM
  TCCCodegenCommon TCCCodegenCPU TCCCodegenCUDA TCCCommonPipeline
  TCCCPUPipeline TCCCUDAPipeline TCCPipelines TCCExecutionEngine TCCAOT)
set(TCC_PLAIN_LIBS TCCRuntime TCCModelRuntime TCCReference TCCCAPI
  TCCMLIRCAPI)
foreach(optional TCCDNNLRuntime TCCCUDARuntime TCCONNXImport)
  if(TARGET ${optional})
    list(APPEND TCC_PLAIN_LIBS ${optional})
  endif()
endforeach()
foreach(lib ${TCC_MLIR_STYLE_LIBS} ${TCC_PLAIN_LIBS})
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
# Pipelines.h's option defaults depend on it: a consumer must see the same.
if(TCC_HAVE_DNNL)
  target_compile_definitions(TCCPipelines INTERFACE
    $<INSTALL_INTERFACE:TCC_HAVE_DNNL=1>)
endif()
install(TARGETS ${TCC_PLAIN_LIBS} EXPORT MLIRTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(TCC_TOOLS tcc-opt tcc-run tcc-compile tcc-run-lib)
if(TARGET tcc-import-onnx)
  list(APPEND TCC_TOOLS tcc-import-onnx)
endif()
install(TARGETS ${TCC_TOOLS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY include/tcc include/tcc-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/tcc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")

install(EXPORT MLIRTargets FILE TCCTargets.cmake NAMESPACE TCC::
  DESTINATION ${TCC_INSTALL_PACKAGE_DIR})
configure_package_config_file(cmake/TCCConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TCCConfig.cmake
  INSTALL_DESTINATION ${TCC_INSTALL_PACKAGE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TCCConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/TCCConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TCCConfigVersion.cmake
  DESTINATION ${TCC_INSTALL_PACKAGE_DIR})
