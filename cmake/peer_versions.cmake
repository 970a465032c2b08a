# Our peers written against libraries we did not write are found in the tools cache under their
# sources' hash, which scripts/setup computes the same way when it builds them, so that an edit
# builds them again: the Go ones (tests/protocols/grpcgo_peer, connectgo_peer: grpc-go's and
# connect-go's servers and connect-go's client) and the Node.js one (connectnode_peer:
# connect-node's server and client). wirebench_peer_versions(TARGET SCOPE) defines
# WIREBENCH_<PEER>_VERSION for each on TARGET: the tests and `run --scenario echo` use them.
function(wirebench_peer_versions target scope)
  foreach(entry "grpcgo_peer:go.mod;go.sum;main.go" "connectgo_peer:go.mod;go.sum;main.go"
                "connectnode_peer:package.json;peer.mjs")
    string(REPLACE ":" ";" parts "${entry}")
    list(POP_FRONT parts peer)
    set(sources "")
    foreach(f ${parts})
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
