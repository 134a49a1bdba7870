"""JupyterLab for the browser test: galata's test configuration (it ships in the jupyterlab wheel and
exposes ``window.galata``), on 127.0.0.1 with the port, token and root folder that run.sh chose."""

import os

from jupyterlab.galata import configure_jupyter_server

c = get_config()  # noqa: F821 (given by Jupyter when it reads this file)
configure_jupyter_server(c)
c.ServerApp.ip = "127.0.0.1"
c.ServerApp.port = int(os.environ["MM_PORT"])
c.ServerApp.port_retries = 0
c.IdentityProvider.token = os.environ["MM_TOKEN"]
c.ServerApp.root_dir = os.environ["MM_ROOT"]
c.ServerApp.open_browser = False
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.ServerApp.allow_root = True  # CI runs as root
