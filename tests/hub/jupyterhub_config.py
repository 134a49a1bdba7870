# The JupyterHub of tests/classroom/test_hub.py: the class table as a hub-managed service
# (docs/howto/jupyterhub.md, "The class table as a hub service", shows the lines a school's hub needs).
# Ports, folders and the service's command come from the environment, so the test can pick free ports
# and a folder of its own.
import json
import os

RUN = os.environ["MAUMAU_HUB_RUN"]

c = get_config()  # noqa: F821

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ["MAUMAU_HUB_PORT"])              # the proxy: what browsers reach
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ["MAUMAU_HUB_API_PORT"])
c.ConfigurableHTTPProxy.command = [os.environ["MAUMAU_CHP"]]        # configurable-http-proxy from npm
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['MAUMAU_PROXY_API_PORT']}"
c.ConfigurableHTTPProxy.pid_file = os.path.join(RUN, "proxy.pid")
c.JupyterHub.db_url = "sqlite:///" + os.path.join(RUN, "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = os.path.join(RUN, "cookie_secret")

c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allowed_users = {"alice", "bob", "carol", "tina"}
c.JupyterHub.load_groups = {"teachers": {"users": ["tina"]}}        # tina teaches: a group, not a token
c.Authenticator.admin_users = {"teacher"}
c.JupyterHub.spawner_class = "simple"                               # SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(RUN, "home", "{username}")

# --- every user gets the course, a learner's folder (docs/howto/jupyterhub.md, "Every user gets the course")
# The user's own server writes (or brings up to date) ~/maumau before it starts, as that user, with any spawner;
# a folder the user changed is never overwritten (maumau course refuses, the server starts all the same).
c.Spawner.cmd = ["sh", "-c", 'maumau course "$HOME/maumau" --student; exec jupyterhub-singleuser "$@"',
                 "jupyterhub-singleuser"]
c.Spawner.default_url = "/lab/tree/maumau/notebooks/01_start_here.ipynb"
c.Spawner.http_timeout = 120  # writing the course takes some seconds the first time
c.Spawner.args = ["--allow-root"] if os.getuid() == 0 else []  # the test machine may run everything as root

# --- the lines a school's hub needs (docs/howto/jupyterhub.md) --------------------------------------------------------
c.JupyterHub.services = [
    {
        "name": "maumau-classroom",
        "url": f"http://127.0.0.1:{os.environ['MAUMAU_SERVICE_PORT']}",
        "command": json.loads(os.environ["MAUMAU_SERVICE_COMMAND"]),  # maumau serve --hub --db ...
        "environment": {"MAUMAU_TEACHER_TOKEN": os.environ["MAUMAU_TEACHER_TOKEN"]},  # not on the command line
        "oauth_no_confirm": True,
        "display": True,
    },
    {"name": "test-admin", "api_token": os.environ["MAUMAU_TEST_ADMIN_TOKEN"]},  # the test mints tokens
]
c.JupyterHub.load_roles = [
    {"name": "user", "scopes": ["self", "access:services!service=maumau-classroom"]},
    {"name": "token-minter", "scopes": ["tokens", "read:users", "servers"], "services": ["test-admin"]},
    # the service asks the hub whether a user is a teacher (an admin, or in the group "teachers")
    {"name": "maumau-classroom-service", "scopes": ["read:users"], "services": ["maumau-classroom"]},
]
