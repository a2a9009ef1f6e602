"""What the AWS plugins share: the availability check (SDK, credentials and region read the
standard way: environment, shared config/credentials files, SSO, profiles), client creation
and which errors deserve a retry. boto3/botocore are imported here only when called.

The availability check leaves out the EC2 instance-metadata provider unless the machine says
it is an EC2 instance: that provider probes 169.254.169.254 over the network, and ``redactor
plugins`` must answer at once and send nothing anywhere.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

RETRYABLE_CODES = frozenset({
    "ThrottlingException", "Throttling", "TooManyRequestsException", "RequestLimitExceeded",
    "ProvisionedThroughputExceededException", "InternalServerException", "InternalServerError",
    "ServiceUnavailable", "ServiceUnavailableException", "RequestTimeout",
    "RequestTimeoutException",
})

_DMI_FILES = ("/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/board_vendor",
              "/sys/class/dmi/id/product_version", "/sys/class/dmi/id/bios_version")


def _looks_like_ec2() -> bool:
    for name in _DMI_FILES:
        try:
            if "amazon" in Path(name).read_text(errors="ignore").lower():
                return True
        except OSError:
            continue
    return False


def sdk_missing() -> str | None:
    if importlib.util.find_spec("boto3") is None:
        return "the AWS SDK is not installed (pip install 'redactor[cloud]' or boto3)"
    return None


def _session(profile: str | None = None):
    import botocore.session
    return botocore.session.Session(profile=profile) if profile else botocore.session.Session()


def credentials_reason(profile: str | None = None) -> str | None:
    """None when AWS credentials and a region are found the standard way, else why not."""
    missing = sdk_missing()
    if missing:
        return missing
    try:
        session = _session(profile)
        resolver = session.get_component("credential_provider")
        if not _looks_like_ec2() or os.environ.get("AWS_EC2_METADATA_DISABLED", "").lower() == "true":
            resolver.remove("iam-role")
        credentials = resolver.load_credentials()
        region = session.get_config_variable("region")
    except Exception as exc:  # a broken profile or config file is a reason, not a crash
        return f"AWS configuration cannot be read: {type(exc).__name__}: {exc}"
    if credentials is None:
        return ("no AWS credentials found (set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, "
                "AWS_PROFILE or ~/.aws/credentials)")
    if not region:
        return "no AWS region configured (set AWS_REGION/AWS_DEFAULT_REGION or region in ~/.aws/config)"
    return None


def make_client(service: str, region: str | None = None, profile: str | None = None,
                connect_timeout: float = 10.0, read_timeout: float = 60.0):
    """A boto3 client whose own retries are off: the plugin's backoff loop is the single
    place that retries, so attempts do not multiply."""
    import boto3
    from botocore.config import Config
    session = boto3.session.Session(profile_name=profile) if profile else boto3.session.Session()
    config = Config(retries={"total_max_attempts": 1, "mode": "standard"},
                    connect_timeout=connect_timeout, read_timeout=read_timeout)
    return session.client(service, region_name=region or None, config=config)


def client_or_unavailable(service: str, region: str | None = None, profile: str | None = None):
    """``make_client``, with a missing SDK or an unusable region/profile turned into
    PluginUnavailable naming the plugin's service."""
    from redactor.plugin_api import PluginUnavailable

    missing = sdk_missing()
    if missing:
        raise PluginUnavailable(f"{service}: {missing}")
    try:
        return make_client(service, region=region, profile=profile)
    except Exception as exc:  # NoRegionError, ProfileNotFound
        raise PluginUnavailable(f"{service}: cannot create the AWS client: {exc}") from exc


def error_code(exc: BaseException) -> str:
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", ""))
    return ""


def is_retryable(exc: BaseException) -> bool:
    from botocore.exceptions import ConnectionError as BotoConnectionError
    from botocore.exceptions import ReadTimeoutError
    if isinstance(exc, (BotoConnectionError, ReadTimeoutError)):
        return True
    return error_code(exc) in RETRYABLE_CODES


def describe_error(exc: BaseException) -> str:
    code = error_code(exc)
    if code:
        message = exc.response.get("Error", {}).get("Message", "")  # type: ignore[attr-defined]
        return f"{code}: {message}".rstrip(": ")
    return f"{type(exc).__name__}: {exc}"
