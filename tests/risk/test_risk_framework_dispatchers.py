"""Django's manage.py and Laravel's artisan, graded by the framework's command catalogue where the file is the
template's own (programs/frameworks.py, settings.py ``framework_script``), and as an unread program file otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel as R
from bot.risk import classify
from bot.risk.recipes import GivenRecipes
from tests.risk.both_sides import graded, project

#: django/conf/project_template/manage.py-tpl (Django 5.0), rendered for the project ``shop``.
MANAGE_PY = '''#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""
import os
import sys


def main():
    """Run administrative tasks."""
    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'shop.settings')
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == '__main__':
    main()
'''

#: laravel/laravel's artisan (Laravel 11).
ARTISAN_11 = """#!/usr/bin/env php
<?php

use Symfony\\Component\\Console\\Input\\ArgvInput;

define('LARAVEL_START', microtime(true));

// Register the Composer autoloader...
require __DIR__.'/vendor/autoload.php';

// Bootstrap Laravel and handle the command...
$status = (require_once __DIR__.'/bootstrap/app.php')
    ->handleCommand(new ArgvInput);

exit($status);
"""

#: laravel/laravel's artisan (Laravel 10), with its block comments.
ARTISAN_10 = """#!/usr/bin/env php
<?php

define('LARAVEL_START', microtime(true));

/*
|--------------------------------------------------------------------------
| Register The Auto Loader
|--------------------------------------------------------------------------
*/

require __DIR__.'/vendor/autoload.php';

$app = require_once __DIR__.'/bootstrap/app.php';

$kernel = $app->make(Illuminate\\Contracts\\Console\\Kernel::class);

$status = $kernel->handle(
    $input = new Symfony\\Component\\Console\\Input\\ArgvInput,
    new Symfony\\Component\\Console\\Output\\ConsoleOutput
);

$kernel->terminate($input, $status);

exit($status);
"""


def _django(tmp_path: Path, manage: str = MANAGE_PY) -> Path:
    return project(
        tmp_path,
        {"manage.py": manage, "shop/__init__.py": "", "shop/settings.py": "DEBUG = True\n", "shop/urls.py": ""},
    )


def _laravel(tmp_path: Path, artisan: str = ARTISAN_11) -> Path:
    return project(tmp_path, {"artisan": artisan, "composer.json": "{}\n", "bootstrap/app.php": "<?php\n"})


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("python manage.py check", R.WORKSPACE_WRITE),
        ("python3 manage.py showmigrations", R.WORKSPACE_WRITE),
        ("python manage.py sqlmigrate shop 0001", R.WORKSPACE_WRITE),
        ("python manage.py test shop.tests -v 2 --parallel", R.WORKSPACE_WRITE),
        ("python manage.py makemigrations shop", R.WORKSPACE_WRITE),
        ("./manage.py check --deploy", R.WORKSPACE_WRITE),
        ("python -u manage.py check", R.WORKSPACE_WRITE),
        ("python manage.py runserver 127.0.0.1:8000", R.NETWORK),
        # a database change, as rails db:migrate is graded
        ("python manage.py migrate", R.SYSTEM),
    ],
)
def test_everyday_manage_py_is_graded_by_its_command(tmp_path: Path, command: str, grade: R) -> None:
    risk, _ = graded(command, _django(tmp_path))
    assert risk == grade


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("python manage.py diffsettings", R.NETWORK),  # prints SECRET_KEY
        ("python manage.py dumpdata auth.user", R.NETWORK),
        ("python manage.py flush --noinput", R.DESTRUCTIVE),
        ("python manage.py shell -c 'import os'", R.DESTRUCTIVE),
        ("python manage.py dbshell", R.DESTRUCTIVE),
        ("python manage.py collectstatic --noinput", R.DESTRUCTIVE),  # STATIC_ROOT may be anywhere
        ("python manage.py purge_everything", R.DESTRUCTIVE),  # a project's own command
        ("python manage.py check --settings=other.settings", R.DESTRUCTIVE),
        ("python manage.py check --pythonpath=/tmp", R.DESTRUCTIVE),
        ("python manage.py test --testrunner=evil.Runner", R.DESTRUCTIVE),
        ("DJANGO_SETTINGS_MODULE=other.settings python manage.py check", R.DESTRUCTIVE),
        ("PYTHONPATH=/tmp python manage.py check", R.DESTRUCTIVE),
        ("python -X importtime manage.py check", R.DESTRUCTIVE),
        ("python -c 'x' manage.py check", R.DESTRUCTIVE),
        ("touch x && python manage.py check", R.DESTRUCTIVE),
        ("python ../elsewhere/manage.py check", R.DESTRUCTIVE),
    ],
)
def test_manage_py_commands_that_run_code_delete_or_print_secrets_stay_high(
    tmp_path: Path, command: str, grade: R
) -> None:
    risk, _ = graded(command, _django(tmp_path))
    assert risk == grade


@pytest.mark.parametrize(
    "manage",
    [
        MANAGE_PY.replace("import sys\n", "import sys\nimport shutil\n"),
        MANAGE_PY.replace("    main()\n", "    main()\n    os.system('touch ran')\n"),
        MANAGE_PY.replace("'shop.settings'", "'antigravity'"),  # an installed module, imported for its settings
        "# -*- coding: utf-7 -*-\n" + MANAGE_PY,
        MANAGE_PY.replace("#!/usr/bin/env python", "#!/bin/sh"),
        MANAGE_PY.replace('"forget to activate', '"forget \\x41 to activate'),
        MANAGE_PY.replace("import os\n", "import os\x0cimport shutil\n"),
    ],
)
def test_a_manage_py_that_is_not_the_template_is_an_unread_program(tmp_path: Path, manage: str) -> None:
    workspace = _django(tmp_path, manage)
    risk, details = graded("python manage.py check", workspace)
    assert risk == R.DESTRUCTIVE
    assert any("manage.py" in d for d in details)


def test_a_manage_py_link_or_none_is_an_unread_program(tmp_path: Path) -> None:
    workspace = _django(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "sub" / "manage.py").symlink_to(workspace / "manage.py")
    assert graded("cd sub && python manage.py check", workspace)[0] == R.DESTRUCTIVE
    assert graded("cd shop && python manage.py check", workspace)[0] == R.DESTRUCTIVE


def test_the_server_without_the_adapters_answer_keeps_manage_py_destructive(tmp_path: Path) -> None:
    workspace = _django(tmp_path)
    given = classify("python manage.py check", contained=False, workspace=str(workspace), recipes=GivenRecipes([]))
    assert given.risk == R.DESTRUCTIVE


def test_manage_py_is_never_covered_by_a_standing_approval(tmp_path: Path) -> None:
    workspace = _django(tmp_path)
    from bot.risk.recipes import ProjectRecipes

    read = classify(
        "python manage.py check", contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace)
    )
    assert read.risk == R.WORKSPACE_WRITE
    assert any("manage.py" in (c.chosen_by or ()) for c in read.commands)


@pytest.mark.parametrize(
    "artisan", [ARTISAN_11, ARTISAN_10, "#!/usr/bin/env php\n<?php\nrequire __DIR__.'/vendor/autoload.php';\n"]
)
@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("php artisan route:list", R.WORKSPACE_WRITE),
        ("php artisan migrate:status", R.WORKSPACE_WRITE),
        ("php artisan test --filter=OrderTest", R.WORKSPACE_WRITE),
        ("php artisan make:controller OrderController --resource", R.WORKSPACE_WRITE),
        ("php artisan config:clear", R.WORKSPACE_WRITE),
        ("./artisan about", R.WORKSPACE_WRITE),
        ("php artisan serve --port=8080", R.NETWORK),
        ("php artisan migrate", R.SYSTEM),
    ],
)
def test_everyday_artisan_is_graded_by_its_command(tmp_path: Path, artisan: str, command: str, grade: R) -> None:
    risk, _ = graded(command, _laravel(tmp_path, artisan))
    assert risk == grade


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("php artisan config:show mail", R.NETWORK),
        ("php artisan migrate:fresh --seed", R.DESTRUCTIVE),
        ("php artisan db:wipe --force", R.DESTRUCTIVE),
        ("php artisan tinker --execute='system(1);'", R.DESTRUCTIVE),
        ("php artisan purge:storage", R.DESTRUCTIVE),  # a project's own command
        ("php artisan about --env=other", R.DESTRUCTIVE),
        ("php artisan migrate --path=/tmp/migrations", R.DESTRUCTIVE),
        ("APP_ENV=other php artisan about", R.DESTRUCTIVE),
        ("php -d auto_prepend_file=/tmp/x.php artisan route:list", R.DESTRUCTIVE),
        ("php -c /tmp/php.ini artisan test", R.DESTRUCTIVE),
        ("php artisan route:list --json > /etc/motd", R.DESTRUCTIVE),
    ],
)
def test_artisan_commands_that_run_code_delete_or_print_secrets_stay_high(
    tmp_path: Path, command: str, grade: R
) -> None:
    risk, _ = graded(command, _laravel(tmp_path))
    assert risk == grade


@pytest.mark.parametrize(
    "artisan",
    [
        ARTISAN_11.replace("exit($status);", "system('touch ran');\nexit($status);"),
        ARTISAN_11.replace("// Register", "// Register ?> <?php system('touch ran'); //"),
        # a line comment holding the start of a block comment: the statement between runs
        ARTISAN_11.replace("// Register the", "// /* Register\nsystem('ran');\n// */ the"),
        ARTISAN_11.replace("'/vendor/autoload.php'", "'/vendor/autoload.php' . `touch ran`"),
        ARTISAN_11.replace("'/vendor/autoload.php'", '"/vendor/{$x}autoload.php"'),
        ARTISAN_11.replace("#!/usr/bin/env php", "#!/bin/sh"),
        "<?php\n#[Attr]\nexit(0);\n",
    ],
)
def test_an_artisan_that_is_not_the_skeletons_is_an_unread_program(tmp_path: Path, artisan: str) -> None:
    risk, _ = graded("php artisan route:list", _laravel(tmp_path, artisan))
    assert risk == R.DESTRUCTIVE


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("django-admin --version", R.READ_ONLY),
        ("django-admin startproject shop", R.WORKSPACE_WRITE),
        ("django-admin startproject shop /etc/shop", R.DESTRUCTIVE),
        ("django-admin startproject shop --template=https://x.example.invalid/t.zip", R.DESTRUCTIVE),
        # the settings module comes from the environment FlyBot does not see
        ("django-admin check", R.DESTRUCTIVE),
        ("django-admin migrate --settings=shop.settings", R.DESTRUCTIVE),
    ],
)
def test_django_admin_grades_only_the_commands_without_settings(tmp_path: Path, command: str, grade: R) -> None:
    risk, _ = graded(command, _django(tmp_path))
    assert risk >= grade if grade == R.DESTRUCTIVE else risk == grade
