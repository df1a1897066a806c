# servebench_embed_data(TARGET DIR): compiles every file under DIR into TARGET,
# readable through servebench::util::embedded_file("models/llama-3.1-8b.yaml").
function(servebench_embed_data target dir)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS RELATIVE ${dir} ${dir}/*)
  list(SORT files)
  set(out ${CMAKE_BINARY_DIR}/generated/embedded_data.cpp)
  set(abs_files "")
  foreach(f IN LISTS files)
    list(APPEND abs_files ${dir}/${f})
  endforeach()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DDIR=${dir} -DOUT=${out} -P ${CMAKE_SOURCE_DIR}/cmake/embed_data_gen.cmake
    DEPENDS ${abs_files} ${CMAKE_SOURCE_DIR}/cmake/embed_data_gen.cmake
    COMMENT "embedding data/ into the binary")
  add_library(${target} STATIC ${out})
  target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR}/src)
endfunction()
