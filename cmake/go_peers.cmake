# Our Go peers (tests/protocols/grpcgo_peer, connectgo_peer: grpc-go's and connect-go's servers
# and connect-go's client) are found in the tools cache under their sources' hash, which
# scripts/setup computes the same way when it builds them, so that an edit builds them again.
# wirebench_go_peer_versions(TARGET SCOPE) defines WIREBENCH_GRPCGO_PEER_VERSION and
# WIREBENCH_CONNECTGO_PEER_VERSION on TARGET: the tests and `run --scenario echo` use them.
function(wirebench_go_peer_versions target scope)
  foreach(peer grpcgo_peer connectgo_peer)
    set(sources "")
    foreach(f go.mod go.sum main.go)
      set(path ${PROJECT_SOURCE_DIR}/tests/protocols/${peer}/${f})
      file(READ ${path} text)
      string(APPEND sources "${text}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
    endforeach()
    string(SHA256 hash "${sources}")
    string(SUBSTRING ${hash} 0 12 version)
    string(TOUPPER ${peer} macro)
    target_compile_definitions(${target} ${scope} WIREBENCH_${macro}_VERSION="${version}")
  endforeach()
endfunction()
