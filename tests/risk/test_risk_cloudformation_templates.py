"""CloudFormation deploys acknowledging IAM resources or macros (``--capabilities CAPABILITY_IAM``,
``CAPABILITY_NAMED_IAM``, ``CAPABILITY_AUTO_EXPAND``): the template is read in the workspace by the adapter and graded
alike by the server; one granting admin-like access, or one FlyBot cannot read, is destructive (privilege-grant).
Deploys of templates granting less, or without those capabilities, stay a remote change (system)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.programs.cloud import cloudformation_grants
from tests.risk.both_sides import graded, project

SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

_ROLE_YAML = """\
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Name:
    Type: String
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: !Sub "${Name}-reader"
      AssumeRolePolicyDocument:
        Statement:
          - Effect: Allow
            Principal: {Service: !Join ["", ["lambda.", !Ref "AWS::URLSuffix"]]}
            Action: sts:AssumeRole
          - Effect: Allow
            Principal:
              AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"
            Action: sts:AssumeRole
      Policies:
        - PolicyName: read
          PolicyDocument:
            Statement:
              - Effect: Allow
                Action: [s3:GetObject, s3:ListBucket]
                Resource: !GetAtt Bucket.Arn
              - Effect: Deny
                Action: "*"
                Resource: "*"
  Bucket:
    Type: AWS::S3::Bucket
Outputs:
  Arn:
    Value: !GetAtt Role.Arn
"""
_ROLE_JSON = """{
  "Resources": {
    "Role": {
      "Type": "AWS::IAM::Role",
      "Properties": {
        "AssumeRolePolicyDocument": {"Statement": [{"Effect": "Allow",
          "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
        "ManagedPolicyArns": [{"Fn::Sub": "arn:${AWS::Partition}:iam::aws:policy/ReadOnlyAccess"}]
      }
    }
  }
}
"""
_SAM = """\
Transform: AWS::Serverless-2016-10-31
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app.handler
      Runtime: python3.12
      Policies:
        - S3ReadPolicy:
            BucketName: !Ref Bucket
  Bucket:
    Type: AWS::S3::Bucket
"""
_FIRST = "Action: [s3:GetObject, s3:ListBucket]\n                Resource: !GetAtt Bucket.Arn"
_ACCOUNT = 'AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"'


def _grant(action: str, resource: str) -> str:
    """The everyday role template whose first statement allows ``action`` on ``resource`` (YAML)."""
    return _ROLE_YAML.replace(_FIRST, f"Action: {action}\n                Resource: {resource}")


#: Everyday templates: IAM resources granting narrow rights (iam:PassRole of the template's own role, IAM reads on
#: every resource, a principal built from pseudo parameters and the template's resources).
_NARROW = {
    "role.yaml": _ROLE_YAML,
    "role.json": _ROLE_JSON,
    "sam.yaml": _SAM,
    "passrole-own.yaml": _grant("iam:PassRole", "!GetAtt Role.Arn"),
    "passrole-sub.yaml": _grant("[iam:PassRole]", '!Sub "arn:${AWS::Partition}:iam::${AWS::AccountId}:role/${Role}"'),
    "iam-reads.yaml": _grant("[iam:Get*, iam:List*, iam:SimulatePrincipalPolicy]", '"*"'),
    "sub-resource.yaml": _ROLE_YAML.replace(_ACCOUNT, 'AWS: !Sub "${Role.Arn}"'),
}

#: Templates granting admin-like access or deploying what FlyBot cannot see, each with what the reason names.
_WIDE = {
    "star.yaml": (_ROLE_YAML.replace("[s3:GetObject, s3:ListBucket]", '"*"'), "every action"),
    "iamstar.yaml": (_ROLE_YAML.replace("[s3:GetObject, s3:ListBucket]", "[s3:GetObject, 'IAM:*']"), "every action"),
    "notaction.yaml": (_ROLE_YAML.replace("Action: [s3:GetObject", "NotAction: [s3:GetObject"), "NotAction"),
    "param.yaml": (_ROLE_YAML.replace("[s3:GetObject, s3:ListBucket]", "!Ref Name"), "every action"),
    "admin.json": (_ROLE_JSON.replace("ReadOnlyAccess", "AdministratorAccess"), "AdministratorAccess"),
    "star.json": (_ROLE_JSON.replace('"sts:AssumeRole"', '["sts:AssumeRole", "*"]'), "every action"),
    "escaped.json": (_ROLE_JSON.replace('"sts:AssumeRole"', '"\\u002a"'), "every action"),
    "anyone.json": (_ROLE_JSON.replace('{"Service": "ec2.amazonaws.com"}', '{"AWS": ["arn:aws:iam::1:root", "*"]}'),
                    "everyone"),
    "anyone.yaml": (_ROLE_YAML.replace('AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"', 'AWS: "*"'), "everyone"),
    "sam-admin.yaml": (_SAM.replace("- S3ReadPolicy:\n            BucketName: !Ref Bucket", "- AdministratorAccess"),
                       "AdministratorAccess"),
    "passrole.yaml": (_grant("[s3:GetObject, iam:PassRole]", '"*"'), "iam:PassRole"),
    "attach.yaml": (_grant("iam:AttachRolePolicy", '!Sub "arn:aws:iam::${AWS::AccountId}:role/*"'), "iam:PassRole"),
    "put-wild.yaml": (_grant("'iam:Put*'", "!Ref Name"), "iam:PassRole"),
    "put-case.yaml": (_grant("IAM:PutUserPolicy", "!ImportValue Users"), "iam:PassRole"),
    "put-any.yaml": (_ROLE_YAML.replace(_FIRST, "Action: iam:PutGroupPolicy\n                NotResource: x"),
                     "iam:PassRole"),
    "sub-param.yaml": (_ROLE_YAML.replace(_ACCOUNT, 'AWS: !Sub "arn:aws:iam::${Name}:root"'), "everyone"),
    "sub-unknown.yaml": (_ROLE_YAML.replace(_ACCOUNT, 'AWS: !Sub "arn:aws:iam::${Other}:root"'), "everyone"),
    "sub-map.yaml": (_ROLE_YAML.replace(_ACCOUNT, 'AWS: !Sub ["arn:aws:iam::${A}:root", {A: !Ref Name}]'),
                     "everyone"),
    "sub-long.json": (_ROLE_JSON.replace('{"Service": "ec2.amazonaws.com"}',
                                         '{"AWS": {"Fn::Sub": "arn:aws:iam::${Acct}:root"}}'), "everyone"),
    "join-param.json": (_ROLE_JSON.replace('{"Service": "ec2.amazonaws.com"}',
                                           '{"AWS": {"Fn::Join": ["", ["arn:aws:iam::", {"Ref": "Acct"}, ":root"]]}}'),
                        "everyone"),
    "nested.yaml": ("Resources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n"
                    "      TemplateURL: https://s3.amazonaws.com/b/child.yaml\n", "nested stack"),
    "macro.yaml": ("Transform: [AWS::Serverless-2016-10-31, MyMacro]\n" + _SAM.split("\n", 1)[1], "macro"),
    "include.yaml": ("Resources:\n  Fn::Transform:\n    Name: AWS::Include\n    Parameters: {Location: s3://b/x}\n",
                     "macro"),
    "twice.yaml": (_ROLE_YAML.replace("Action: [s3:GetObject, s3:ListBucket]",
                                      "Action: [s3:GetObject]\n                Action: '*'"), "could not be read"),
    "twice.json": ('{"Resources": {}, "Resources": {}}', "could not be read"),
    "broken.yaml": (_ROLE_YAML + "  bad: [unclosed\n", "could not be read"),
    "list.yaml": ("- just a list\n", "could not be read"),
    "laughs.yaml": ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8)), "could not be read"),
}  # fmt: skip

_DEPLOY = "aws cloudformation deploy --stack-name s --capabilities CAPABILITY_IAM --template-file "
_CREATE = "aws cloudformation create-stack --stack-name s --capabilities CAPABILITY_NAMED_IAM --template-body file://"


@pytest.mark.parametrize("name", sorted(_WIDE))
def test_a_template_granting_admin_like_access_is_read_and_found(name: str) -> None:
    text, why = _WIDE[name]
    found = cloudformation_grants(text)
    assert found is not None and why in found, found


@pytest.mark.parametrize("name", sorted(_NARROW))
def test_a_narrow_template_with_short_form_tags_parses_and_grants_nothing(name: str) -> None:
    assert cloudformation_grants(_NARROW[name]) is None


@pytest.mark.parametrize("name", sorted(_WIDE))
def test_deploying_a_wide_template_with_iam_capabilities_is_destructive(tmp_path: Path, name: str) -> None:
    workspace = project(tmp_path, {name: _WIDE[name][0]})
    for command in (
        _DEPLOY + name,
        _CREATE + name,
        f"aws cloudformation update-stack --stack-name s --template-body file://{name} --capabilities CAPABILITY_IAM",
        f"aws cloudformation create-change-set --stack-name s --change-set-name c --template-body file://{name} "
        "--capabilities=CAPABILITY_AUTO_EXPAND",
        "aws cloudformation deploy --stack-name s --capabilities CAPABILITY_AUTO_EXPAND CAPABILITY_IAM "
        f"--template-file ./{name}",
        f"aws cloudformation create-stack-set --stack-set-name s --template-body file://{name} "
        "--capabilities CAPABILITY_NAMED_IAM",
    ):
        level, details = graded(command, workspace)
        assert level is DES, (command, details)
        assert any("template" in d and _WIDE[name][1] in d for d in details), (command, details)


@pytest.mark.parametrize("name", sorted(_NARROW))
def test_deploying_a_narrow_template_keeps_its_grade(tmp_path: Path, name: str) -> None:
    workspace = project(tmp_path, {f"infra/{name}": _NARROW[name]})
    for command in (
        _DEPLOY + f"infra/{name}",
        f"cd infra && {_DEPLOY}{name}",
        _CREATE + f"infra/{name}",
        f"aws cloudformation update-stack --stack-name s --template-body file://infra/{name} "
        "--capabilities CAPABILITY_IAM CAPABILITY_AUTO_EXPAND --parameters ParameterKey=Name,ParameterValue=x",
        f'aws cloudformation deploy --stack-name s --template-file infra/{name} --capabilities "$CAPS"',
        f"aws cloudformation update-stack-set --stack-set-name s --template-body file://infra/{name} "
        "--capabilities CAPABILITY_IAM",
    ):
        level, details = graded(command, workspace)
        assert level is SYS, (command, details)
        # nothing reported (the server alone, no recipe book): fail closed
        assert classify(command, contained=False, workspace=str(workspace)).risk is DES, command


def test_a_template_flybot_cannot_read_is_destructive_with_iam_capabilities(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"role.yaml": _ROLE_YAML, "big.yaml": _ROLE_YAML + "#" * 300_000 + "\n"})
    other = tmp_path / "elsewhere" / "t.yml"
    other.write_text(_ROLE_YAML)
    (workspace / "dir.yaml").mkdir()
    create = "aws cloudformation create-stack --stack-name s --capabilities CAPABILITY_IAM "
    for command in (
        _DEPLOY + str(other),
        _DEPLOY + "../elsewhere/t.yml",
        _DEPLOY + "~/t.yml",
        _DEPLOY + "missing.yaml",
        _DEPLOY + "big.yaml",
        _DEPLOY + "dir.yaml",
        _DEPLOY + '"$T"',
        "aws cloudformation deploy --stack-name s --template-file ../elsewhere/t.yml --capabilities=$CAPS",
        "cp ../elsewhere/t.yml role.yaml && " + _DEPLOY + "role.yaml",
        "aws cloudformation deploy --stack-name s --capabilities CAPABILITY_IAM",
        create + "--template-url https://s3.amazonaws.com/b/t.yaml",
        create + "--template-body https://example.com/t.yaml",
        "aws cloudformation update-stack --stack-name s --use-previous-template --capabilities CAPABILITY_IAM",
        "aws cloudformation update-stack-set --stack-set-name s --use-previous-template --capabilities CAPABILITY_IAM",
        "aws cloudformation create-stack --cli-input-json file://role.yaml",
        create + "--template-body '" + _WIDE["star.json"][0] + "'",
    ):
        level, details = graded(command, workspace)
        assert level is DES, (command, details)
        assert any("template" in d for d in details), (command, details)


def test_deploys_without_iam_capabilities_keep_their_grade(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"star.yaml": _WIDE["star.yaml"][0]})
    for command in (
        "aws cloudformation deploy --stack-name s --template-file star.yaml",
        "aws cloudformation deploy --stack-name s --template-file /tmp/other/t.yml --capabilities CAPABILITY_RESOURCE_POLICY",
        "aws cloudformation create-stack --stack-name s --template-url https://s3.amazonaws.com/b/t.yaml",
        "aws cloudformation create-stack --stack-name s --template-body '" + _ROLE_JSON.replace("\n", " ") + "' "
        "--capabilities CAPABILITY_IAM",
    ):
        level, details = graded(command, workspace)
        assert level is SYS, (command, details)
