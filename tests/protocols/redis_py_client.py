"""redis-py against our resp server, with the library's default settings (redis-py 8 speaks
RESP3: HELLO 3, then CLIENT SETINFO) and with protocol=2. Prints one line per check; exits
non-zero at the first that fails. Run by resp_test.cpp: redis_py_client.py PORT."""
import sys

import redis

port = int(sys.argv[1])
for protocol in (None, 2):  # None: the library's default
    kwargs = {} if protocol is None else {"protocol": protocol}
    r = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5, **kwargs)
    assert r.ping() is True
    assert r.execute_command("GREET", "ann") == b"hello, ann"
    assert r.echo("two words") == b"two words"
    assert r.client_getname() is None
    r.client_setname("worker-1")
    assert r.client_getname() == "worker-1"
    assert r.config_get("save") == {"save": ""}, r.config_get("save")
    info = r.client_info()
    assert info["name"] == "worker-1" and info["lib-name"] == "redis-py", info
    with r.pipeline(transaction=False) as p:
        for i in range(100):
            p.execute_command("GREET", f"w{i}")
        assert p.execute() == [f"hello, w{i}".encode() for i in range(100)]
    print(f"redis-py {redis.__version__} protocol {protocol or 'default'} resp={info['resp']}: ok")
    r.close()
